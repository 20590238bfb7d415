/**
 * The rooms' import rules (.dependency-cruiser.cjs, run on the real tree by `pnpm lint:imports`)
 * each fail on an import added on purpose: dependency-cruiser runs with the real config over a
 * fixture tree laid out as packages/server/src and packages/sandbox/src, where every rule has one
 * offending import and the imports the rules allow stand beside them.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const config = join(root, '.dependency-cruiser.cjs');
// the root devDependency (bin/ is not among the package's exports)
const depcruise = join(root, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs');

const SRC = 'packages/server/src';
const SANDBOX_SRC = 'packages/sandbox/src';

/** file → its source; each line a reason to be here. */
const FIXTURE: Record<string, string> = {
  'http/context.ts': 'export const context = 1;',
  'http/route.ts': "import { context } from './context.js';\nexport const route = context;",
  // http-reaches-db-through-services
  'http/idempotency.ts': "import { sql } from '../db/sql.js';\nexport const idempotency = sql;",
  'db/sql.ts': 'export const sql = 1;',
  // db-knows-no-transport-or-domain (three ways)
  'db/outbox.ts': "import { context } from '../http/context.js';\nexport const outbox = context;",
  'db/reads-a-resource.ts': "import { repo } from '../resources/intents/repo.js';\nexport const reads = repo;",
  'db/reads-the-pipeline.ts': "import { machine } from '../pipeline/machine.js';\nexport const reads = machine;",
  'domain/environment.ts': "export type Environment = 'test' | 'live';",
  // allowed: a resource uses http/ and domain/, and a repo db/
  'resources/intents/routes.ts': "import { route } from '../../http/route.js';\nimport type { Environment } from '../../domain/environment.js';\nexport const routes: [number, Environment] = [route, 'test'];",
  'resources/intents/repo.ts': "import { sql } from '../../db/sql.js';\nexport const repo = sql;",
  // resources-never-import-workers
  'resources/intents/worker.ts': "import { loop } from '../../workers/loop.js';\nexport const worker = loop;",
  'workers/loop.ts': 'export const loop = 1;',
  // allowed: a job calls the pipeline
  'workers/settle.ts': "import { machine } from '../pipeline/machine.js';\nexport const settle = machine;",
  'pipeline/machine.ts': 'export const machine = 1;',
  // pipeline-knows-no-http, directly and through a barrel of another room (no-re-export-across-rooms)
  'pipeline/caller.ts': "import { context } from '../http/context.js';\nexport const caller = context;",
  'pipeline/via-barrel.ts': "import { context } from '../lib/index.js';\nexport const via = context;",
  'lib/index.ts': "export * from '../http/context.js';",
  'lib/money.ts': 'export const money = 1;',
  'pricing/price.ts': 'export const price = 1;',
  // sandbox-only-from-start-up: nothing but the start-up imports the sandbox package, by its name
  // or its files, a type included: not resources/, pipeline/, workers/, db/, nor the server's own
  // sandbox client beside the thread's start
  'resources/intents/sandboxed.ts': "import { startSandbox } from '@fundkit/sandbox';\nexport const sandboxed = startSandbox;",
  'pipeline/wires.ts': "import type { SandboxLedger } from '@fundkit/sandbox';\nexport type Wires = SandboxLedger;",
  'workers/reaches-in.ts': "import { store } from '../../../sandbox/src/store.js';\nexport const reaches = store;",
  'db/sandboxed.ts': "import type { SandboxLedger } from '@fundkit/sandbox';\nexport type Stored = SandboxLedger;",
  'stellar/sandbox/link.ts': "import type { SandboxLedger } from '@fundkit/sandbox';\nexport type Link = { url: string; ledger?: SandboxLedger };",
  // ... nor through a barrel: `export * from` counts as the import it re-exports
  'stellar/tools.ts': "export * from '@fundkit/sandbox';",
  // allowed: the start-up (main.ts, the thread's start), and the server's own client, imported from anywhere
  'stellar/sandbox/thread.ts': "import { startSandboxThread } from '@fundkit/sandbox';\nexport const thread = startSandboxThread;",
  'pipeline/uses-link.ts': "import type { Link } from '../stellar/sandbox/link.js';\nimport { thread } from '../stellar/sandbox/thread.js';\nexport const link: [Link | null, unknown] = [null, thread];",
  'treasury/fund.ts': "import { member } from '../cluster/member.js';\nexport const fund = member;",
  'main.ts': "import { thread } from './stellar/sandbox/thread.js';\nimport { startSandbox } from '@fundkit/sandbox';\nexport const main = [thread, startSandbox];",
  // no-cycle-between-folders: treasury/ → cluster/ → treasury/, no file cycle
  'cluster/member.ts': "import { limit } from '../treasury/limit.js';\nexport const member = limit;",
  'treasury/limit.ts': 'export const limit = 1;',
  // ... and between two resources, one way by a type import only: quotes/ → executions/ → quotes/
  'resources/quotes/accept.ts': "import { start } from '../executions/start.js';\nexport const accept = start;",
  'resources/executions/start.ts': "import type { QuoteCaller } from '../quotes/caller.js';\nexport const start = (caller: QuoteCaller) => caller;",
  'resources/quotes/caller.ts': 'export interface QuoteCaller { applicationId: string }',
  // pipeline-knows-no-resources
  'pipeline/reads-a-resource.ts': "import { repo } from '../resources/intents/repo.js';\nexport const reads = repo;",
  // records-below-pipeline-and-resources (each room above it)
  'records/payments.ts': "import { sql } from '../db/sql.js';\nimport type { Environment } from '../domain/environment.js';\nexport const payments: [number, Environment] = [sql, 'test'];",
  'records/errors.ts': "import { context } from '../http/context.js';\nexport const errors = context;",
  'records/intents.ts': "import { repo } from '../resources/intents/repo.js';\nexport const intents = repo;",
  'records/transitions.ts': "import { machine } from '../pipeline/machine.js';\nexport const transitions = machine;",
  'records/jobs.ts': "import { loop } from '../workers/loop.js';\nexport const jobs = loop;",
  'records/pool.ts': "import { limit } from '../treasury/limit.js';\nexport const pool = limit;",
  'records/flags.ts': "import { args } from '../cli/args.js';\nexport const flags = args;",
  'cli/args.ts': 'export const args = 1;',
  // allowed: a resource reads the rows in records/
  'resources/payments/read-model.ts': "import { payments } from '../../records/payments.js';\nexport const readModel = payments;",
  // no-cycle-between-rooms: a file cycle ops/ → pipeline/ → ops/
  'ops/meter.ts': "import { tick } from '../pipeline/tick.js';\nexport const meter = () => tick;",
  'pipeline/tick.ts': "import { meter } from '../ops/meter.js';\nexport const tick = () => meter;",
};

/** @fundkit/sandbox's files (under packages/sandbox/src) → their source. */
const SANDBOX_FIXTURE: Record<string, string> = {
  // sandbox-imports-nothing-of-the-server: no module of the server, whatever it is
  'ledger.ts': "import { price } from '../../server/src/pricing/price.js';\nimport { money } from '../../server/src/lib/money.js';\nexport const ledger = price + money;",
  // allowed: its own modules
  'store.ts': "import { ledger } from './ledger.js';\nexport const store = ledger;",
};

interface Violation { from: string; to: string; rule: { name: string; severity: string } }

let dir: string;
let violations: Violation[];

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'fundkit-rooms-'));
  for (const [file, source] of Object.entries(FIXTURE)) {
    mkdirSync(dirname(join(dir, SRC, file)), { recursive: true });
    writeFileSync(join(dir, SRC, file), `${source}\n`);
  }
  for (const [file, source] of Object.entries(SANDBOX_FIXTURE)) {
    mkdirSync(dirname(join(dir, SANDBOX_SRC, file)), { recursive: true });
    writeFileSync(join(dir, SANDBOX_SRC, file), `${source}\n`);
  }
  const run = spawnSync(process.execPath, [depcruise, SRC, SANDBOX_SRC, '--config', config, '--output-type', 'json'], { cwd: dir, encoding: 'utf8' });
  if (!run.stdout) throw new Error(`dependency-cruiser gave no report: ${run.stderr}`);
  violations = (JSON.parse(run.stdout) as { summary: { violations: Violation[] } }).summary.violations;
}, 60_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

const pairs = (rule: string) => violations.filter((v) => v.rule.name === rule).map((v) => [v.from.replace(`${SRC}/`, ''), v.to.replace(`${SRC}/`, '')]);

describe('the rooms\' import rules fail on a deliberate import', () => {
  it.each([
    ['pipeline-knows-no-http', [['pipeline/caller.ts', 'http/context.ts']]],
    ['db-knows-no-transport-or-domain', [['db/outbox.ts', 'http/context.ts'], ['db/reads-a-resource.ts', 'resources/intents/repo.ts'], ['db/reads-the-pipeline.ts', 'pipeline/machine.ts']]],
    ['http-reaches-db-through-services', [['http/idempotency.ts', 'db/sql.ts']]],
    ['resources-never-import-workers', [['resources/intents/worker.ts', 'workers/loop.ts']]],
    ['sandbox-only-from-start-up', [
      ['db/sandboxed.ts', '@fundkit/sandbox'], ['pipeline/wires.ts', '@fundkit/sandbox'], ['resources/intents/sandboxed.ts', '@fundkit/sandbox'],
      ['stellar/sandbox/link.ts', '@fundkit/sandbox'], ['stellar/tools.ts', '@fundkit/sandbox'], ['workers/reaches-in.ts', `${SANDBOX_SRC}/store.ts`],
    ]],
    ['sandbox-imports-nothing-of-the-server', [[`${SANDBOX_SRC}/ledger.ts`, 'lib/money.ts'], [`${SANDBOX_SRC}/ledger.ts`, 'pricing/price.ts']]],
    ['no-re-export-across-rooms', [['lib/index.ts', 'http/context.ts']]],
    ['pipeline-knows-no-resources', [['pipeline/reads-a-resource.ts', 'resources/intents/repo.ts']]],
    ['records-below-pipeline-and-resources', [
      ['records/errors.ts', 'http/context.ts'], ['records/flags.ts', 'cli/args.ts'], ['records/intents.ts', 'resources/intents/repo.ts'],
      ['records/jobs.ts', 'workers/loop.ts'], ['records/pool.ts', 'treasury/limit.ts'], ['records/transitions.ts', 'pipeline/machine.ts'],
    ]],
  ])('%s', (rule, expected) => {
    expect(pairs(rule).sort()).toEqual(expected);
  });

  it('no-cycle-between-rooms', () => {
    // one report per cycle, from whichever of its files comes first
    expect(pairs('no-cycle-between-rooms').map((pair) => pair.sort())).toEqual([['ops/meter.ts', 'pipeline/tick.ts']]);
  });

  it('no-cycle-between-folders', () => {
    // the fixture's other rules make folder cycles of their own (db/ ↔ http/, …): these two are this rule's
    const cycles = pairs('no-cycle-between-folders');
    expect(cycles).toContainEqual(['treasury', 'cluster']);
    // a type import counts
    expect(cycles).toContainEqual(['resources/quotes', 'resources/executions']);
    expect(violations.filter((v) => v.rule.name === 'no-cycle-between-folders').every((v) => v.rule.severity === 'error')).toBe(true);
  });

  it('lets the imports the rules allow through', () => {
    const flagged = new Set(violations.map((v) => v.from.replace(`${SRC}/`, '')));
    for (const allowed of [
      'resources/intents/routes.ts', 'resources/intents/repo.ts', 'workers/settle.ts', 'main.ts', 'stellar/sandbox/thread.ts', 'pipeline/uses-link.ts',
      'treasury/fund.ts', 'records/payments.ts', 'resources/payments/read-model.ts', `${SANDBOX_SRC}/store.ts`,
    ]) {
      expect(flagged, allowed).not.toContain(allowed);
    }
  });
});
