import { Fundkit } from '@fundkit/sdk';
import { findSandboxKeys } from '../sandbox-keys.js';
import { stringFlag, UsageError, type ParsedArgs } from './args.js';

/** Where a command writes and what it may read; tests inject all of it. */
export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  env: Record<string, string | undefined>;
  cwd: string;
  /** aborts long-running commands (listen); SIGINT in the real bin */
  signal?: AbortSignal;
  /** poll interval of waits and tails, ms */
  pollMs?: number;
}

export interface CommandContext {
  fk: Fundkit;
  apiBase: string;
  /** the key's last characters: names the application in saved state without storing the key */
  keyTail: string;
  /** where the key came from, for errors about it ("FUNDKIT_API_KEY", "--api-key", the saved file) */
  keySource: string;
  json: boolean;
  io: CliIo;
  /** human output; silent with --json so scripts read one JSON document */
  say: (text: string) => void;
  print: (value: unknown) => void;
}

export const DEFAULT_API_BASE = 'http://localhost:4010';

/** --api-key, else FUNDKIT_API_KEY, else the key a local `pnpm start` saved under .fundkit/. */
function apiKey(args: ParsedArgs, io: CliIo): { key: string; source: string } {
  const flag = stringFlag(args, 'api-key');
  const saved = flag ?? io.env.FUNDKIT_API_KEY ? null : findSandboxKeys(io.env, io.cwd);
  const key = flag ?? io.env.FUNDKIT_API_KEY ?? saved?.secretKey;
  if (!key) throw new UsageError('no API key: pass --api-key sk_test_…, set FUNDKIT_API_KEY, or start the reference server here first (pnpm start saves its keys in .fundkit/)');
  if (!key.startsWith('sk_test_')) throw new UsageError('the CLI drives the sandbox: it takes a test secret key (sk_test_…)');
  return { key, source: flag ? '--api-key' : io.env.FUNDKIT_API_KEY ? 'FUNDKIT_API_KEY' : saved!.path };
}

export function commandContext(args: ParsedArgs, io: CliIo): CommandContext {
  const apiBase = (stringFlag(args, 'api-base') ?? io.env.FUNDKIT_API_BASE ?? DEFAULT_API_BASE).replace(/\/+$/, '');
  const json = args.flags.json === true;
  const { key, source } = apiKey(args, io);
  return {
    fk: new Fundkit({ apiKey: key, baseUrl: apiBase, maxRetries: 1 }),
    apiBase, keyTail: key.slice(-8), keySource: source, json, io,
    say: (text) => { if (!json) io.stdout(text + '\n'); },
    print: (value) => io.stdout(JSON.stringify(value) + '\n'),
  };
}

/** Polls until `read` yields a value, the time runs out, or the command is aborted. */
export async function waitFor<T>(ctx: CommandContext, what: string, read: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (ctx.io.signal?.aborted) throw new Error(`stopped while waiting for ${what}`);
    if (Date.now() > until) throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}`);
    await sleep(ctx.io.pollMs ?? 250, ctx.io.signal);
  }
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    // the listener goes when the timer fires: a long tail would otherwise pile them up on the signal
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}
