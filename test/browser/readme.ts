/**
 * The root README's commands, read from its code blocks, so the browser tests run what a new user
 * copies (issue 42): when the README's commands drift from what the server prints or serves, the
 * test that runs them fails instead of the newcomer.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const README = readFileSync(join(import.meta.dirname, '..', '..', 'README.md'), 'utf8');

/** The README's section under `## <title…>`, up to the next `## `. */
export function readmeSection(title: string): string {
  const start = README.indexOf(`\n## ${title}`);
  if (start < 0) throw new Error(`README.md has no section "## ${title}"`);
  const end = README.indexOf('\n## ', start + 4);
  return README.slice(start, end < 0 ? undefined : end);
}

/** The fenced code blocks of a section, in order; `\`-continued lines joined into one. */
export function codeBlocks(section: string): string[] {
  return [...section.matchAll(/^```[a-z]*\n([\s\S]*?)^```$/gm)].map((m) => m[1]!.replace(/\\\n\s*/g, ''));
}

/** The first line of the section's code blocks that starts with `prefix` (a command a user types), without its trailing comment. */
export function commandLine(section: string, prefix: string): string {
  for (const block of codeBlocks(section)) {
    const line = block.split('\n').find((l) => l.trimStart().startsWith(prefix));
    if (line) return line.replace(/\s+#.*$/, '').trim();
  }
  throw new Error(`README.md: no command starting with "${prefix}"`);
}

/** The words after `pnpm fundkit`, as the CLI's argv. */
export function fundkitArgv(line: string): string[] {
  if (!line.startsWith('pnpm fundkit ')) throw new Error(`not a fundkit command: ${line}`);
  return line.slice('pnpm fundkit '.length).trim().split(/\s+/);
}

export interface CurlRequest { method: string; url: string; headers: Record<string, string>; body: string }

/** A `curl -s URL -H … -d '…'` line as the request it sends ($FUNDKIT_API_KEY left for the caller). */
export function parseCurl(line: string): CurlRequest {
  const url = /curl\s+(?:-s\s+)?(\S+)/.exec(line)?.[1];
  const body = /-d\s+'([^']*)'/.exec(line)?.[1];
  if (!url || body === undefined) throw new Error(`README.md: cannot read the curl command: ${line}`);
  const headers = Object.fromEntries([...line.matchAll(/-H\s+"([^:"]+):\s*([^"]*)"/g)].map((m) => [m[1]!.toLowerCase(), m[2]!]));
  return { method: 'POST', url, headers, body };
}

/** The labelled rows of a banner (`  Label   value`), label → value, in order. */
export function bannerRows(banner: string): [string, string][] {
  return banner.split('\n').flatMap((line) => {
    const m = /^ {2}([A-Z][A-Za-z]*(?: [A-Za-z]+)*) {2,}(\S.*)$/.exec(line);
    return m ? [[m[1]!, m[2]!] as [string, string]] : [];
  });
}
