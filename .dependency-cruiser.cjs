/**
 * The rooms of @fundkit/server and who may import whom (issue 40, items 5 and 6).
 * Run by `pnpm lint:imports` (part of `pnpm test`); a broken rule fails with its name.
 *
 * Barrels: dependency-cruiser follows an import into a barrel (index.ts) and records each
 * `export … from` as an edge of the barrel itself, so a barrel that re-exports a forbidden room is
 * caught where it re-exports. The rule `no-re-export-across-rooms` closes the other way round:
 * a barrel may re-export only its own room, so importing a barrel is importing that room.
 */
const SRC = '^packages/server/src/';
const SANDBOX = `${SRC}stellar/sandbox/|^packages/sandbox/|@fundkit/sandbox`;

/** The start-up: the only server code that may start or name the sandbox. */
const START_UP = [`${SRC}(main|index|bootstrap|sandbox-thread)\\.ts$`, `${SRC}cli/`];

/**
 * TEMPORARY exception, to go with issue 40 items 1 and 2 (the sandbox as its own package, reached
 * over the wire): the files outside the start-up that import the sandbox today. Add none.
 * `stellar/index.ts` is a barrel (`export * from './sandbox/index.js'`): every importer of
 * `stellar/index.js` pulls the sandbox in through it until that line goes.
 */
const SANDBOX_IMPORTERS_TODAY = [
  `${SRC}stellar/index\\.ts$`,
  `${SRC}app\\.ts$`,
  `${SRC}services\\.ts$`,
  `${SRC}db/migrate\\.ts$`,
  `${SRC}pipeline/index\\.ts$`,
  `${SRC}pipeline/stellar\\.ts$`,
  `${SRC}pipeline/sandbox-tools\\.ts$`,
];
/**
 * TEMPORARY exception, same issue: the server modules the sandbox imports today (amounts, assets,
 * Horizon record shapes, result codes, SQL, its migrations, threads). Add none.
 */
const SERVER_MODULES_THE_SANDBOX_USES_TODAY = [
  `${SRC}db/(connection|sql)\\.ts$`,
  `${SRC}db/migrations/(migration|020_sandbox_ledger|025_sandbox_pending)\\.ts$`,
  `${SRC}lib/(money|one-at-a-time|thread)\\.ts$`,
  `${SRC}sandbox-thread\\.ts$`,
  `${SRC}stellar/(assets|horizon-types|keypair|network|result-codes)\\.ts$`,
];

const rooms = (...names) => names.map((name) => `${SRC}${name}/`);

module.exports = {
  forbidden: [
    {
      name: 'pipeline-knows-no-http',
      comment: 'The payment machine raises domain errors and never imports http/.',
      severity: 'error',
      from: { path: rooms('pipeline') },
      to: { path: rooms('http') },
    },
    {
      name: 'db-knows-no-transport-or-domain',
      comment: 'Storage imports nothing from http/, resources/ or pipeline/.',
      severity: 'error',
      from: { path: rooms('db') },
      to: { path: rooms('http', 'resources', 'pipeline') },
    },
    {
      name: 'http-reaches-db-through-services',
      comment: 'Middleware reaches storage through a service, never db/ directly.',
      severity: 'error',
      from: { path: rooms('http') },
      to: { path: rooms('db') },
    },
    {
      name: 'resources-never-import-workers',
      comment: 'Jobs are started in one place; a resource never imports its scheduler.',
      severity: 'error',
      from: { path: rooms('resources') },
      to: { path: rooms('workers') },
    },
    {
      name: 'sandbox-only-from-start-up',
      comment: 'Only the start-up imports the sandbox; everything else reaches it over the wire.',
      severity: 'error',
      from: { path: SRC, pathNot: [...START_UP, `${SRC}stellar/sandbox/`, ...SANDBOX_IMPORTERS_TODAY] },
      to: { path: SANDBOX },
    },
    {
      name: 'sandbox-imports-nothing-of-the-server',
      comment: 'The sandbox is a network of its own: it imports nothing of the server outside itself.',
      severity: 'error',
      from: { path: `${SRC}stellar/sandbox/|^packages/sandbox/` },
      to: { path: '^packages/server/|@fundkit/server', pathNot: [`${SRC}stellar/sandbox/`, ...SERVER_MODULES_THE_SANDBOX_USES_TODAY] },
    },
    {
      name: 'no-re-export-across-rooms',
      comment: 'A barrel re-exports only its own room, so importing it counts as importing that room.',
      severity: 'error',
      from: { path: `${SRC}([^/]+)/` },
      to: { path: SRC, pathNot: `${SRC}$1/`, dependencyTypes: ['export'] },
    },
    {
      name: 'no-cycle-between-rooms',
      comment: 'No import cycle leaves a room and comes back: files of one folder of packages/server/src '
        + 'reach files of another and are reached back.',
      severity: 'error',
      from: { path: `${SRC}([^/]+)/` },
      to: { circular: true, via: { path: SRC, pathNot: `${SRC}$1/` } },
    },
    {
      name: 'no-cycle-between-folders',
      comment: 'TEMPORARY warning (issue 40): folders that import each other both ways without a file cycle, '
        + 'pipeline/ and resources/ above all. dependency-cruiser does not baseline folder-scope '
        + 'violations, so this rule reports them on every run and becomes an error once they are mended.',
      severity: 'warn',
      scope: 'folder',
      from: { path: SRC },
      to: { path: SRC, circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(dist|node_modules)/' },
    tsPreCompilationDeps: true,
  },
};
