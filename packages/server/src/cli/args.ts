/** `fundkit <command> [positionals] --flag value --flag=value --bool`: the few shapes the CLI needs. */
export interface ParsedArgs {
  command: string | undefined;
  positionals: string[];
  flags: Record<string, string | true>;
}

export class UsageError extends Error {}

const BOOLEAN = new Set(['json', 'help', 'version', 'keep', 'fund', 'force', 'collections']);

export function parseArgs(argv: string[]): ParsedArgs {
  const positionals: string[] = [];
  const flags: Record<string, string | true> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const match = /^--([a-z][a-z-]*)(?:=(.*))?$/.exec(arg);
    if (!match) {
      if (arg.startsWith('-') && arg !== '-') throw new UsageError(`unknown option ${arg}`);
      positionals.push(arg);
      continue;
    }
    const name = match[1]!;
    if (BOOLEAN.has(name)) flags[name] = true;
    else {
      const value = match[2] ?? argv[++i];
      if (value === undefined) throw new UsageError(`--${name} needs a value`);
      flags[name] = value;
    }
  }
  const [command, ...rest] = positionals;
  return { command, positionals: rest, flags };
}

export function stringFlag(args: ParsedArgs, name: string): string | undefined {
  const value = args.flags[name];
  return typeof value === 'string' ? value : undefined;
}

/** Refuses flags a command does not know: a typo must not silently fall back to a default. */
export function allowFlags(args: ParsedArgs, allowed: string[]): void {
  const known = new Set([...allowed, 'api-key', 'api-base', 'json', 'help']);
  for (const name of Object.keys(args.flags)) if (!known.has(name)) throw new UsageError(`unknown option --${name} for "${args.command}"`);
}
