/**
 * Assembles the payment pipeline: the Stellar network, the observer, the state machine, the
 * settlement, refund and expiry steps. Their worker loops are started in workers/loops.ts.
 */
import type { Sql } from '../db/sql.js';
import type { Logger } from 'pino';
import { ConfigError, type Config } from '../config.js';
import { deriveKey } from '../lib/crypto.js';
import { randomKeypairSource, type DepositAccountSource } from '../records/deposit-accounts.js';
import { FundingIntentsRepo } from '../records/funding-intents.js';
import { LedgerRepo } from '../records/ledger.js';
import { PaymentsRepo } from '../records/payments.js';
import { RefundsRepo } from '../records/refunds.js';
import { SettlementsRepo } from '../records/settlements.js';
import { parseDuration } from '../lib/time.js';
import { DepositRetirer } from './retire.js';
import { PaymentConfirmer } from './confirm.js';
import { DepositKeys } from './deposit-keys.js';
import { EventWriter } from './events.js';
import { Expirer } from './expiry.js';
import { PipelineIntentsRepo } from './intents-repo.js';
import { Observer } from './observer.js';
import { CursorRepo } from './cursor-repo.js';
import { LedgerFollower } from './follower.js';
import { DepositPool } from './deposit-pool.js';
import { DepositPoolRepo } from './deposit-pool-repo.js';
import { poolDepositSource } from './deposit-source.js';
import { RefundPayer } from './refund-payout.js';
import { SandboxTools } from './sandbox-tools.js';
import { Settler } from './settlement.js';
import { StateMachine } from './state-machine.js';
import { checkNetwork, setupNetwork, setupSandboxMode, type StellarSetup } from './stellar.js';
import type { SandboxLink } from '../stellar/sandbox/link.js';
import type { NetworkMeter, PipelineMetrics } from './metrics.js';
import { TreasurySigner } from './tx.js';
import { LoopLoad } from '../lib/loop-load.js';
import { WatchRepo } from './watch-repo.js';
import { CollectionRepo } from './collection-repo.js';
import { collectionSource } from './collection-source.js';
import { onboardCollections } from './collections.js';
import { noCollections, type CollectionSource } from '../records/deposit-accounts.js';

export interface PipelineSettings {
  /** idle poll of each worker loop */
  workerIntervalMs: number;
  /** the longest the ledger follower waits between reads when nothing says a ledger closed */
  backfillIntervalMs: number;
  /** base of the one backoff function */
  backoffBaseMs: number;
  /** deposit accounts stay watched this long after expiry before they retire (DESIGN §4: 7 days) */
  depositWatchMs: number;
}

function watchWindow(raw: string): number {
  try {
    return parseDuration(raw);
  } catch (error) {
    throw new ConfigError(`FUNDKIT_DEPOSIT_WATCH is invalid: ${(error as Error).message}`);
  }
}

export function pipelineSettings(env: Record<string, string | undefined>): PipelineSettings {
  const num = (name: string, fallback: number) => (env[name] && Number(env[name]) > 0 ? Number(env[name]) : fallback);
  return {
    workerIntervalMs: num('FUNDKIT_WORKER_INTERVAL_MS', 1000),
    backfillIntervalMs: num('FUNDKIT_BACKFILL_INTERVAL_MS', 5000),
    backoffBaseMs: num('FUNDKIT_WORKER_BACKOFF_MS', 1000),
    depositWatchMs: env.FUNDKIT_DEPOSIT_WATCH ? watchWindow(env.FUNDKIT_DEPOSIT_WATCH) : 7 * 86_400_000,
  };
}

export interface PipelineDeps {
  sql: Sql;
  config: Config;
  logger: Logger;
  masterKey: Buffer;
  publicBaseUrl: () => string;
  settings: PipelineSettings;
  /**
   * Throws when this server may no longer submit treasury transactions (another server took the
   * pipeline over). Checked in the transaction that stores a batch's envelopes, before it is sent.
   */
  fence?: () => Promise<void>;
  /** metrics and the log lines of notable events */
  telemetry: PipelineMetrics;
  /** counts each request to the network (ops/network-meter.ts); none when absent */
  meterNetwork?: NetworkMeter;
  /** a running sandbox network to share (ServerOptions.sandbox) */
  sandbox?: SandboxLink;
  /** wakes the named job loop (workers/loops.ts): new work for it */
  nudgeJob(name: string): void;
}

export interface Pipeline {
  repos: { payments: PaymentsRepo; settlements: SettlementsRepo; ledger: LedgerRepo; refunds: RefundsRepo; watch: WatchRepo; intents: PipelineIntentsRepo; fundingIntents: FundingIntentsRepo };
  stellar: StellarSetup | null;
  /** where creates take their deposit account: the warm pool, else a PROVISIONING one (never the chain) */
  deposits: DepositAccountSource;
  /** the collection accounts `muxed` intents are paid to (a database read; none without a network) */
  collections: CollectionSource;
  collectionRepo: CollectionRepo;
  /** what deposit and collection account secrets are sealed with */
  depositSecretsKey: Buffer;
  /** makes the collection accounts on chain once (sandbox start, `fundkit treasury`); a no-op without a network */
  onboardCollections(): Promise<void>;
  /** the deposit pool worker's logic (null without a network) */
  pool: DepositPool | null;
  machine: StateMachine;
  events: EventWriter;
  observer: Observer | null;
  /** reads the network ledger by ledger for every watched account (null without a network) */
  follower: LedgerFollower | null;
  /** the payment confirmation, settlement, refund payout and retirement workers' logic (null without a network) */
  confirmer: PaymentConfirmer | null;
  settler: Settler | null;
  refundPayer: RefundPayer | null;
  retirer: DepositRetirer | null;
  tools: SandboxTools | null;
  depositKeys: DepositKeys;
  expirer: Expirer;
  nudge: { confirm(): void; settle(): void; refund(): void };
  /** the treasury's one signer (null without a network): every platform transaction goes through it */
  signer: TreasurySigner | null;
  nudgeJob(name: string): void;
  /** fills the deposit pool before the loops start (sandbox at instant close: tests and the quickstart get active accounts) */
  fillPool(timeoutMs: number): Promise<void>;
}

function createRepos(sql: Sql) {
  return {
    payments: new PaymentsRepo(sql), settlements: new SettlementsRepo(sql), ledger: new LedgerRepo(sql), refunds: new RefundsRepo(sql),
    watch: new WatchRepo(sql), intents: new PipelineIntentsRepo(sql), fundingIntents: new FundingIntentsRepo(sql),
  };
}

/** A real network closes a ledger about every 5 s: the follower reads about then. */
const NETWORK_LEDGER_MS = 5000;

/** A free channel's wait for more work before it sends less than a full transaction (see EngineOptions). */
const TREASURY_LINGER_MS = 250;

export async function createPipeline(deps: PipelineDeps): Promise<Pipeline> {
  const { sql, logger } = deps;
  const repos = createRepos(sql);
  const secretsKey = deriveKey(deps.masterKey, 'deposit-account-secrets');
  const events = new EventWriter(sql, repos.payments, repos.settlements, deps.telemetry);
  const machine = new StateMachine(repos.fundingIntents, events, (id, from, to) => sql.afterCommit(() => deps.telemetry.transition(id, from, to)));
  const expirer = new Expirer(sql, repos.intents, machine);
  // testnet, pubnet and custom networks: over Stellar RPC or Horizon (see setupNetwork)
  const setup = deps.config.stellar === 'sandbox' || !deps.config.network
    ? await setupSandboxMode(sql, deriveKey(deps.masterKey, 'stellar-keys'), deps.config, logger, deps.sandbox)
    : await setupNetwork(sql, deriveKey(deps.masterKey, 'stellar-keys'), deps.config.network);
  if (setup && deps.config.network) await checkNetwork(setup.network, deps.config.network, logger);
  // every request to the network is counted, when the caller meters it (services.ts: ops/network-meter.ts)
  const stellar = setup && { ...setup, network: deps.meterNetwork ? deps.meterNetwork(setup.network) : setup.network };
  const poolRepo = new DepositPoolRepo(sql);
  const depositKeys = new DepositKeys(repos.fundingIntents, secretsKey, stellar ? { treasury: stellar.treasury, lookup: poolRepo } : null);
  const nudgeOf = (name: string) => () => deps.nudgeJob(name);
  const nudge = { confirm: nudgeOf('payment-confirmation'), settle: nudgeOf('settlement'), refund: nudgeOf('refund-payout') };
  let observer: Observer | null = null;
  let follower: LedgerFollower | null = null;
  let tools: SandboxTools | null = null;
  let deposits: DepositAccountSource = randomKeypairSource;
  let pool: DepositPool | null = null;
  let treasurySigner: TreasurySigner | null = null;
  let confirmer: PaymentConfirmer | null = null;
  let settler: Settler | null = null;
  let refundPayer: RefundPayer | null = null;
  let retirer: DepositRetirer | null = null;
  const collectionRepo = new CollectionRepo(sql);
  let collections: CollectionSource = noCollections;
  let onboard = async () => {};

  if (stellar) {
    const networkName = stellar.network.kind;
    const signer = new TreasurySigner(stellar.network, stellar.treasury, {
      channels: deps.config.treasuryChannels, maxBatchItems: deps.config.treasuryBatchItems, atomically: (fn) => sql.transaction(async () => {
        await deps.fence?.();
        return fn();
      }),
      // a ledger that closes per transaction gains nothing from waiting; a real or clocked one does
      lingerMs: stellar.sandbox && !stellar.sandbox.clocked ? 0 : TREASURY_LINGER_MS,
    });
    treasurySigner = signer;
    observer = new Observer({
      sql, network: stellar.network, networkName, payments: repos.payments, intents: repos.intents, machine, logger, onApplied: nudge.confirm,
      telemetry: deps.telemetry, collections: collectionRepo,
    });
    const recorder = observer;
    follower = new LedgerFollower({
      network: stellar.network, networkName, cursors: new CursorRepo(sql), watch: repos.watch, logger,
      handle: (address, record) => recorder.handle(address, record),
      // the sandbox says when it closes a ledger (below); a real network is read about once a ledger
      ledgerMs: stellar.sandbox ? 0 : NETWORK_LEDGER_MS, idleMs: deps.settings.backfillIntervalMs,
    });
    const reader = follower;
    // the cursor before any deposit account exists (a payment to one is then never older than
    // it); a network down at start only delays it: the pool waits for it (beforeSubmit)
    const init = follower.init().catch((error: unknown) => logger.warn({ err: error }, 'the ledger follower could not read the network\'s tip at start; deposit accounts wait for it'));
    // a real network is not waited for at start (the server answers while it is unreachable)
    if (stellar.sandbox) await init;
    stellar.sandbox?.onLedger(() => {
      reader.wake();
      nudgeOf('ledger-follower')();
    });
    tools = stellar.sandbox ? new SandboxTools(stellar.sandbox, stellar.network) : null;
    confirmer = new PaymentConfirmer({ sql, payments: repos.payments, machine, onConfirmed: nudge.settle });
    settler = new Settler({
      sql, network: stellar.network, networkName, payments: repos.payments, settlements: repos.settlements, ledger: repos.ledger, intents: repos.intents,
      machine, events, signer, depositKeys, ...(tools ? { prepareDestination: tools.prepareDestination.bind(tools) } : {}),
      routeOf: (intent) => ((intent as { route_type?: string }).route_type === 'STELLAR_PATH_PAYMENT' ? 'STELLAR_PATH_PAYMENT' : 'DIRECT_STELLAR'),
    });
    refundPayer = new RefundPayer({ sql, refunds: repos.refunds, payments: repos.payments, ledger: repos.ledger, machine, events, signer, depositKeys });
    // an account just became active: the follower reads the next ledger at once (it matches every watched address)
    const followAddress = () => nudgeOf('ledger-follower')();
    // Horizon adapter wiring: live keys use pubnet only, test keys testnet or the sandbox only (DESIGN §5)
    const served = stellar.network.kind === 'pubnet' ? 'live' : 'test';
    const loopLoad = new LoopLoad();
    pool = new DepositPool({
      sql, network: stellar.network, networkName, environment: served, size: deps.config.depositPoolSize, repo: poolRepo, watch: repos.watch,
      machine, signer, secretsKey, onActivated: followAddress, beforeSubmit: () => reader.init(), wake: nudgeOf('deposit-pool'),
      // as long as the treasury lingers on a ledger that closes every few seconds; briefly on the instant sandbox
      gatherMs: stellar.sandbox && !stellar.sandbox.clocked ? undefined : TREASURY_LINGER_MS,
      saturated: () => loopLoad.saturated(),
    });
    deposits = poolDepositSource({
      pool: poolRepo, watch: repos.watch, networkName, secretsKey, serves: (environment) => environment === served,
      watchAddress: followAddress, nudge: nudgeOf('deposit-pool'), keyThreadAfter: deps.config.keyThreadAfter,
    });
    collections = collectionSource(collectionRepo, networkName, (environment) => environment === served);
    onboard = async () => {
      await onboardCollections({ repo: collectionRepo, network: stellar.network, networkName, signer, secretsKey, logger });
      followAddress();
    };
    retirer = new DepositRetirer({
      sql, network: stellar.network, payments: repos.payments, refunds: repos.refunds, settlements: repos.settlements, machine, signer, depositKeys,
      watchWindowMs: deps.settings.depositWatchMs,
    });
  }

  return {
    repos, stellar, deposits, collections, collectionRepo, depositSecretsKey: secretsKey, onboardCollections: () => onboard(), pool, machine, events, observer, follower, confirmer, settler, refundPayer, retirer,
    tools, depositKeys, expirer, nudge, signer: treasurySigner,
    nudgeJob: (name) => deps.nudgeJob(name),
    async fillPool(timeoutMs) {
      // the sandbox's collection accounts (muxed deposits), made once; a clocked ledger makes them in the background
      const collecting = onboard().catch((error: unknown) => logger.warn({ err: error }, 'collection accounts not made at start (muxed deposits wait for them)'));
      // a ledger on a clock closes only once started: its pool fills in the background, as on a real network
      if (stellar?.sandbox?.clocked) return;
      await collecting;
      await pool?.fill(timeoutMs).catch((error: unknown) => logger.warn({ err: error }, 'deposit pool not filled at start; its worker retries'));
    },
  };
}
