import { ConnectionError, FundkitError } from '@fundkit/sdk';
import { parseArgs, allowFlags, UsageError, type ParsedArgs } from './args.js';
import { commandContext, DEFAULT_API_BASE, type CliIo, type CommandContext } from './context.js';
import { listen } from './listen.js';
import { migrate } from './migrate.js';
import { pay } from './pay.js';
import { treasury } from './treasury.js';
import { sandbox } from './sandbox.js';
import { trigger } from './trigger.js';

export type { CliIo } from './context.js';

const HELP = `fundkit — drive a Fundkit sandbox from the terminal

  fundkit listen --forward-to <url> [--events a,b] [--keep]
      register <url> as a webhook endpoint, print its signing secret, show every delivery live
  fundkit trigger <event>
      create real sandbox objects whose lifecycle emits <event> (e.g. payment.completed)
  fundkit pay <funding_intent_id> --amount 25 [--asset USDC] [--memo text] [--force]
      a sandbox payment to an intent by a funded payer, followed until it settles; refused
      (exit 1) when the intent takes no more payments (CREDITED, EXPIRED…) unless --force
  fundkit migrate [--db <file | postgres://…>]
      apply the database migrations this version has and the database lacks (default
      FUNDKIT_DATABASE_URL, else FUNDKIT_DB, else .fundkit/fundkit.db); refuses a database a
      newer version migrated
  fundkit treasury [--fund] [--collections] [--json] [--db <file | postgres://…>]
      the platform treasury of the configured network (FUNDKIT_STELLAR, the server's database
      and FUNDKIT_MASTER_KEY): its address, XLM and asset balances, trustlines, channel accounts,
      and the XLM it still needs for the deposit pool (FUNDKIT_DEPOSIT_POOL_SIZE per asset) and
      FUNDKIT_TREASURY_CHANNELS channels; exit 0 when nothing is missing, 1 when something is.
      --fund: on the sandbox or testnet, funds it from the friendbot (FUNDKIT_FRIENDBOT_URL to
      use another), adds its USDC and EURC trustlines and creates its channels; refused on pubnet
      --collections: once it holds what it needs, makes the collection accounts (one per asset)
      that deposit_type "muxed" intents are paid to; the sandbox server makes them at start
  fundkit sandbox [--port 8000] [--ledger-seconds N] [--db <file>]
      the sandbox ledger as a Stellar network of its own on one port, in stellar/quickstart's
      layout: Horizon at /, Stellar RPC at /rpc, friendbot at /friendbot (default database
      FUNDKIT_DATA_DIR/sandbox.db, else .fundkit/sandbox.db); runs until Ctrl-C

options (listen, trigger, pay):
  --api-key <sk_test_…>   default FUNDKIT_API_KEY, else the keys \`pnpm start\` saved in .fundkit/
  --api-base <url>        default FUNDKIT_API_BASE, else ${DEFAULT_API_BASE}
  --json                  machine-readable output (one JSON document per line)
`;

const COMMANDS: Record<string, { flags: string[]; run: typeof pay }> = {
  listen: { flags: ['forward-to', 'events', 'keep'], run: listen },
  trigger: { flags: [], run: trigger },
  pay: { flags: ['amount', 'asset', 'memo', 'force'], run: pay },
};

/** Commands on this machine's files, not the API: no key, no server. */
const LOCAL_COMMANDS: Record<string, { flags: string[]; run: typeof migrate }> = {
  migrate: { flags: ['db'], run: migrate },
  treasury: { flags: ['db', 'fund', 'collections'], run: treasury },
  sandbox: { flags: ['port', 'ledger-seconds', 'db'], run: sandbox },
};

function defaultIo(): CliIo {
  const controller = new AbortController();
  process.once('SIGINT', () => controller.abort());
  process.once('SIGTERM', () => controller.abort());
  return { stdout: (t) => process.stdout.write(t), stderr: (t) => process.stderr.write(t), env: process.env, cwd: process.cwd(), signal: controller.signal };
}

/** The `fundkit` CLI; resolves to the exit code (0 ok, 1 failed, 2 usage). */
export async function runCli(argv: string[], io: CliIo = defaultIo()): Promise<number> {
  let args: ParsedArgs;
  let context: CommandContext | null = null;
  try {
    args = parseArgs(argv);
    if (args.flags.version || !args.command || args.flags.help || args.command === 'help') {
      io.stdout(args.flags.version ? 'fundkit 0.1.0\n' : HELP);
      return 0;
    }
    const local = LOCAL_COMMANDS[args.command];
    if (local) {
      allowFlags(args, local.flags);
      return await local.run(io, args);
    }
    const command = COMMANDS[args.command];
    if (!command) throw new UsageError(`unknown command "${args.command}"`);
    allowFlags(args, command.flags);
    context = commandContext(args, io);
    return await command.run(context, args);
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr(`fundkit: ${error.message}\n(fundkit --help for usage)\n`);
      return 2;
    }
    io.stderr(`fundkit: ${describe(error)}${context ? keyHint(error, context) : ''}\n`);
    return 1;
  }
}

/**
 * A refused key, or a resource another application's key cannot see (404, never 403): which key
 * was used, where it came from, and where the right one is.
 */
function keyHint(error: unknown, ctx: CommandContext): string {
  if (!(error instanceof FundkitError)) return '';
  const used = `the key …${ctx.keyTail.slice(-4)} came from ${ctx.keySource}`;
  if (error.status === 401) {
    return `\n  ${used}, and ${ctx.apiBase} does not know it. The sandbox's keys are in the banner of \`pnpm start\` and in .fundkit/sandbox-keys.json `
      + '(the CLI reads them when FUNDKIT_API_KEY is unset); other keys are made on the dashboard\'s Applications page (/dashboard/#/applications).';
  }
  if (error.status === 404) {
    return `\n  ${used}: an object of another application is not found with it. Use the key of the application that made it `
      + '(FUNDKIT_API_KEY or --api-key; the dashboard\'s Applications page lists each application\'s keys).';
  }
  return '';
}

function describe(error: unknown): string {
  if (error instanceof FundkitError) {
    const hint = error instanceof ConnectionError ? ' (is the server running? pnpm start)' : '';
    return `${error.status ?? ''} ${error.code}: ${error.message}${error.requestId ? ` [${error.requestId}]` : ''}${hint}`.trim();
  }
  return error instanceof Error ? error.message : String(error);
}
