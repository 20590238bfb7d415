/**
 * The rooms of @fundkit/server, and @fundkit/sandbox beside it, and who may import whom (issue 40,
 * items 1, 5 and 6).
 * Run by `pnpm lint:imports` (part of `pnpm test`); a broken rule fails with its name.
 *
 * Barrels: dependency-cruiser follows an import into a barrel (index.ts) and records each
 * `export … from` as an edge of the barrel itself, so a barrel that re-exports a forbidden room is
 * caught where it re-exports. The rule `no-re-export-across-rooms` closes the other way round:
 * a barrel may re-export only its own room, so importing a barrel is importing that room.
 */
const SRC = '^packages/server/src/';
/** The sandbox package (@fundkit/sandbox), by its name or its files. */
const SANDBOX = '^packages/sandbox/|@fundkit/sandbox';

/**
 * The start-up: the only server code that may start or name the sandbox. `stellar/sandbox/thread.ts`
 * starts the sandbox's thread; everything else (the rest of stellar/sandbox/ included: the faucet
 * link and its SandboxLink type are the server's own) reaches the sandbox over HTTP (issue 40, item 2).
 */
const START_UP = [`${SRC}(main|index|bootstrap)\\.ts$`, `${SRC}cli/`, `${SRC}stellar/sandbox/thread\\.ts$`];

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
      name: 'pipeline-knows-no-resources',
      comment: 'The payment machine sits below the API: it reads and writes the rows in records/ and never '
        + 'imports a resource (its routes, services or read models); resources/ may import pipeline/.',
      severity: 'error',
      from: { path: rooms('pipeline') },
      to: { path: rooms('resources') },
    },
    {
      name: 'records-below-pipeline-and-resources',
      comment: 'The money\'s rows and their repos (records/) sit below both the pipeline that writes them and the '
        + 'API that reads them: they import only storage and plain helpers (db/, domain/, lib/, stellar/).',
      severity: 'error',
      from: { path: rooms('records') },
      to: { path: rooms('http', 'resources', 'pipeline', 'workers', 'treasury', 'cli') },
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
      comment: 'Only the start-up imports the sandbox (type imports included); everything else reaches it over the wire.',
      severity: 'error',
      from: { path: SRC, pathNot: START_UP },
      to: { path: SANDBOX },
    },
    {
      name: 'sandbox-imports-nothing-of-the-server',
      comment: 'The sandbox is a network of its own (@fundkit/sandbox): it imports nothing of the server.',
      severity: 'error',
      from: { path: '^packages/sandbox/' },
      to: { path: '^packages/(server|sdk|webhooks|checkout|dashboard)/|@fundkit/(server|sdk|webhooks|checkout|dashboard)' },
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
      comment: 'No two folders import each other, even without a file cycle (type imports count): each pair '
        + 'has a side below, e.g. records/ below pipeline/ below resources/, and among resources '
        + 'route-executions/ below quotes/, applications/ below keys/, payments/ below funding-intents/.',
      severity: 'error',
      scope: 'folder',
      from: { path: SRC },
      to: { path: SRC, circular: true },
    },
  ],
  options: {
    // @fundkit/sandbox resolves to its build (packages/sandbox/dist/): kept as a module, so the
    // rules see who imports the package, but not followed into
    doNotFollow: { path: ['node_modules', '^packages/sandbox/dist/'] },
    exclude: { path: '(^|/)node_modules/|^packages/(server|sdk|webhooks|checkout|dashboard)/dist/' },
    tsPreCompilationDeps: true,
  },
};
