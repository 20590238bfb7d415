import type { CheckoutLinks } from './checkout-link.js';
import { StrKey } from '@stellar/stellar-sdk';
import { GroupCommit } from '../../db/group-commit.js';
import { ApiError, notFound, parseAmountInput } from '../../http/api-error.js';
import type { Caller } from '../../domain/caller.js';
import type { Environment } from '../../domain/environment.js';
import { toPage } from '../../http/pagination.js';
import type { PageRequest } from '../../domain/page.js';
import { encryptSecret } from '../../lib/crypto.js';
import { newId } from '../../lib/ids.js';
import { toStroops } from '../../lib/money.js';
import { isoNow } from '../../lib/time.js';
import type { AssetsService } from '../assets/service.js';
import { currentIntentDefaults } from '../applications/repo.js';
import { noCollections, type CollectionAccount, type CollectionSource, type DepositAccountSource, type ProvisionRequest } from '../../records/deposit-accounts.js';
import { muxedAddress, randomMuxedId } from '../../stellar/muxed.js';
import { OpenIntentsCap, type ApplicationRate } from './open-intents.js';
import type { PayableWait } from './payable-wait.js';
import type { FundingIntentReadModel } from './read-model.js';
import type { DepositAccountRecord, FundingIntentRecord, FundingIntentsRepo, IntentFilters } from '../../records/funding-intents.js';
import type { StateMachine } from '../../pipeline/state-machine.js';
import type { Sql } from '../../db/sql.js';

/** The body of createFundingIntent (spec: CreateFundingIntentRequest). */
export interface CreateIntentInput {
  amount: string;
  asset: string;
  destination_address?: string;
  reference?: string;
  metadata?: Record<string, unknown>;
  expires_at?: string;
  /** `account` (the default) or `muxed` (DESIGN §11); the spec's enum refuses any other with a 400 */
  deposit_type?: 'account' | 'muxed';
}

const DEFAULT_TTL_MS = 24 * 3_600_000;
const MIN_TTL_MS = 60_000;
const MAX_TTL_MS = 30 * 86_400_000;

export interface FundingIntentsDeps {
  sql: Sql;
  repo: FundingIntentsRepo;
  /** the warm pool (or a PROVISIONING account when it is empty); never waits for the chain */
  deposits: DepositAccountSource;
  /** AES-256-GCM key for deposit-account secrets */
  secretsKey: Buffer;
  publicBaseUrl: () => string;
  /** mints the sealed secret of each new intent's hosted checkout link */
  checkoutLinks: Pick<CheckoutLinks, 'mint'>;
  assets: AssetsService;
  /** the intent's wire shape, a page at a time */
  views: FundingIntentReadModel;
  /** the one mover of intent status (status, history row and event together) */
  machine: StateMachine;
  /** the bounded wait for a deposit account still being created */
  payable: PayableWait;
  /** open unpaid intents an application may hold per environment (FUNDKIT_MAX_OPEN_INTENTS) */
  maxOpenIntents: number;
  /** the application's request bucket: the creates other servers can make between two counts */
  applicationRate: ApplicationRate;
  /** collection accounts for `muxed` intents (none without a network) */
  collections?: CollectionSource;
}

/** Draws of a muxed id before giving up: two draws of one random 64-bit id are already unheard of. */
const MUXED_ID_DRAWS = 5;

function parseExpiry(expiresAt: string | undefined, now: number): string {
  if (expiresAt === undefined) return isoNow(now + DEFAULT_TTL_MS);
  const ms = Date.parse(expiresAt);
  if (Number.isNaN(ms) || ms < now + MIN_TTL_MS || ms > now + MAX_TTL_MS) {
    throw new ApiError('INVALID_EXPIRATION', 'expires_at must be between 1 minute and 30 days from now', {
      details: [{ path: 'body.expires_at', message: 'must be between 1 minute and 30 days from now' }],
    });
  }
  return isoNow(ms);
}

function checkDestination(address: string | null | undefined): string {
  if (!address) {
    // what to do next, where to do it: the dashboard's Applications page holds the setting
    throw new ApiError('INVALID_DESTINATION', 'destination_address is required: the application has no settlement address. Add one in the dashboard (/dashboard/#/applications, "Default settlement address") or send destination_address', {
      details: [{ path: 'body.destination_address', message: 'is required when the application has no settlement address' }],
    });
  }
  if (!isStellarAccount(address)) {
    throw new ApiError('INVALID_DESTINATION', 'destination_address is not a valid Stellar account (G…, checksum included)', {
      details: [{ path: 'body.destination_address', message: 'is not a valid Stellar public key' }],
    });
  }
  return address;
}

/** Addresses already found valid: most creates name the same settlement address, and a check decodes base32 and a checksum (~0.05 ms). */
const validAddresses = new Set<string>();
const VALID_ADDRESS_CACHE = 1000;

function isStellarAccount(address: string): boolean {
  if (validAddresses.has(address)) return true;
  if (!StrKey.isValidEd25519PublicKey(address)) return false;
  if (validAddresses.size >= VALID_ADDRESS_CACHE) validAddresses.clear();
  validAddresses.add(address);
  return true;
}

/** What other services need of intents: the ownership check and the wire shape. */
export type IntentAccess = Pick<FundingIntentsService, 'load' | 'get' | 'untilPayable'>;

export class FundingIntentsService {
  /** creates commit in groups (one transaction per event-loop turn, a savepoint each) */
  private readonly writes: GroupCommit;
  private readonly openIntents: OpenIntentsCap;

  constructor(private readonly deps: FundingIntentsDeps) {
    this.openIntents = new OpenIntentsCap(deps.sql, deps.maxOpenIntents, deps.applicationRate);
    // new rows, and a pool account claimed with SKIP LOCKED: no need to queue for the writer lock
    this.writes = new GroupCommit(deps.sql, { selfLocking: true });
  }

  /**
   * Intents made before hosted links carried a secret (migration 030, which has no master key to
   * mint one) show a bare `/checkout/<id>` that opens nothing: each gets a secret at start, so its
   * `hosted_funding_url` opens again (the old bare link stays closed). Returns how many.
   */
  async giveOldIntentsLinks(batch = 500): Promise<number> {
    let given = 0;
    for (;;) {
      const ids = await this.deps.repo.withoutLinkSecret(batch);
      if (ids.length === 0) return given;
      await this.deps.sql.transaction(async () => {
        for (const id of ids) await this.deps.repo.setLinkSecret(id, this.deps.checkoutLinks.mint());
      });
      given += ids.length;
    }
  }

  async create(caller: Caller, input: CreateIntentInput) {
    const now = Date.now();
    const amount = parseAmountInput(() => toStroops(input.amount));
    const asset = await this.checkAsset(input.asset, caller.environment);
    // the application's defaults read now, not from a cache: a settlement address just changed on
    // another server (perhaps away from a compromised one) applies to the very next intent
    const defaults = input.destination_address === undefined || input.deposit_type === undefined
      ? await currentIntentDefaults(this.deps.sql, caller.applicationId) : undefined;
    const destinationAddress = checkDestination(input.destination_address ?? defaults?.settlement_address);
    const expiresAt = parseExpiry(input.expires_at, now);
    const depositType = input.deposit_type ?? defaults?.default_deposit_type ?? 'account';
    const collection = depositType === 'muxed' ? await this.collectionFor(caller.environment, asset) : null;
    // after the checks of the request itself: a refused create is not counted
    const nearCap = await this.openIntents.admit(caller.applicationId, caller.environment);
    const fields = { input, amount, asset, destinationAddress, expiresAt, nearCap };
    if (collection) return this.createMuxed(caller, fields, collection);
    const request: ProvisionRequest = { applicationId: caller.applicationId, environment: caller.environment, asset };
    const prepared = await this.deps.deposits.prepare?.(request);
    const intentId = newId('funding_intent');
    const provisioned = await this.write(nearCap, async () => {
      if (nearCap) await this.openIntents.confirm(caller.applicationId, caller.environment);
      // the pool claim and the rows that use it commit together: an account is taken at most once
      const taken = await this.deps.deposits.take(request, prepared);
      const createdAt = isoNow();
      const account: DepositAccountRecord = {
        id: newId('deposit_account'), application_id: caller.applicationId, environment: caller.environment, network: 'stellar',
        stellar_network: this.deps.assets.network(caller.environment), address: taken.address, asset,
        secret_encrypted: 'sealed' in taken ? taken.sealed : encryptSecret(this.deps.secretsKey, taken.secret), status: taken.status,
        created_at: createdAt, activated_at: taken.status === 'ACTIVE' ? createdAt : null, retired_at: null,
        deposit_type: 'account', muxed_id: null, collection_address: null,
      };
      await this.deps.repo.insertDepositAccount(account);
      await this.deps.repo.insert({
        id: intentId, application_id: caller.applicationId, environment: caller.environment, status: 'CREATED',
        requirement_amount: amount, requirement_asset: asset, destination_network: 'stellar', destination_asset: asset,
        destination_address: destinationAddress, received_amount: 0n, reference: input.reference ?? null,
        metadata: JSON.stringify(input.metadata ?? {}), deposit_account_id: account.id, expires_at: expiresAt, created_at: createdAt, updated_at: createdAt,
        checkout_secret: this.deps.checkoutLinks.mint(),
      });
      await this.deps.repo.insertHistory(intentId, null, 'CREATED', null, createdAt);
      // a pooled account is already active on chain; a PROVISIONING one moves the intent when its worker created it
      if (account.status === 'ACTIVE') await this.deps.machine.transition(intentId, 'AWAITING_PAYMENT', 'deposit account active');
      return taken;
    });
    this.deps.deposits.taken?.(request, provisioned);
    return this.present((await this.deps.repo.findById(intentId))!);
  }

  /**
   * A create's rows: in the next group commit, or near the open-intents cap in a transaction of its
   * own (its turn lock must not hold other applications' creates of the group).
   */
  private write<T>(nearCap: boolean, fn: () => Promise<T>): Promise<T> {
    return nearCap ? this.deps.sql.transaction(fn, { selfLocking: true }) : this.writes.run(fn);
  }

  private async collectionFor(environment: Environment, asset: string): Promise<CollectionAccount> {
    const collection = await (this.deps.collections ?? noCollections).collectionFor(environment, asset);
    if (!collection) {
      throw new ApiError('CONFLICT', `deposit_type "muxed" is not available for ${asset} in the ${environment} environment: the treasury has no collection account for it on this network yet (the operator onboards it with \`fundkit treasury\`); use deposit_type "account"`, {
        details: [{ path: 'body.deposit_type', message: `no collection account for ${asset}` }],
      });
    }
    return collection;
  }

  /**
   * A `muxed` intent: an M… address on the collection account, with a random 64-bit id (drawn
   * again if taken), ACTIVE and AWAITING_PAYMENT at once. Nothing is asked of the network.
   */
  private async createMuxed(caller: Caller, f: { input: CreateIntentInput; amount: bigint; asset: string; destinationAddress: string; expiresAt: string; nearCap: boolean }, collection: CollectionAccount) {
    const intentId = newId('funding_intent');
    await this.write(f.nearCap, async () => {
      if (f.nearCap) await this.openIntents.confirm(caller.applicationId, caller.environment);
      const createdAt = isoNow();
      let account: DepositAccountRecord | null = null;
      for (let draw = 0; draw < MUXED_ID_DRAWS && !account; draw++) {
        const muxedId = randomMuxedId();
        const candidate: DepositAccountRecord = {
          id: newId('deposit_account'), application_id: caller.applicationId, environment: caller.environment, network: 'stellar',
          stellar_network: this.deps.assets.network(caller.environment), address: muxedAddress(collection.address, muxedId), asset: f.asset,
          secret_encrypted: collection.sealed, status: 'ACTIVE', created_at: createdAt, activated_at: createdAt, retired_at: null,
          deposit_type: 'muxed', muxed_id: muxedId, collection_address: collection.address,
        };
        if (await this.deps.repo.insertMuxedDepositAccount(candidate)) account = candidate;
      }
      if (!account) throw new Error(`no free muxed id after ${MUXED_ID_DRAWS} draws`);
      await this.deps.repo.insert({
        id: intentId, application_id: caller.applicationId, environment: caller.environment, status: 'CREATED',
        requirement_amount: f.amount, requirement_asset: f.asset, destination_network: 'stellar', destination_asset: f.asset,
        destination_address: f.destinationAddress, received_amount: 0n, reference: f.input.reference ?? null,
        metadata: JSON.stringify(f.input.metadata ?? {}), deposit_account_id: account.id, expires_at: f.expiresAt, created_at: createdAt, updated_at: createdAt,
        checkout_secret: this.deps.checkoutLinks.mint(),
      });
      await this.deps.repo.insertHistory(intentId, null, 'CREATED', null, createdAt);
      await this.deps.machine.transition(intentId, 'AWAITING_PAYMENT', 'muxed address issued');
    });
    return this.present((await this.deps.repo.findById(intentId))!);
  }

  private async checkAsset(code: string, environment: Environment): Promise<string> {
    const asset = await this.deps.assets.findEnabled(environment, code);
    if (!asset) {
      throw new ApiError('UNSUPPORTED_ASSET', `asset ${code} is not supported; use USDC, EURC or XLM`, { details: [{ path: 'body.asset', message: 'is not a supported asset' }] });
    }
    return asset.code;
  }

  /** Another application's intent is 404; the other environment's is 403 naming it. */
  async load(caller: Caller, id: string): Promise<FundingIntentRecord> {
    const intent = await this.deps.repo.findById(id);
    if (!intent || intent.application_id !== caller.applicationId) throw notFound('funding intent');
    if (intent.environment !== caller.environment) {
      throw new ApiError('FORBIDDEN', `this funding intent belongs to the ${intent.environment} environment; use a ${intent.environment} key`);
    }
    return intent;
  }

  async get(caller: Caller, id: string) {
    return this.present(await this.load(caller, id));
  }

  async list(caller: Caller, filters: IntentFilters, page: PageRequest) {
    const rows = await this.deps.repo.list(caller.applicationId, caller.environment, filters, page);
    return toPage(rows, page, (shown) => this.deps.views.page(shown, { readOnly: true }));
  }

  /** Only while nothing was received (DESIGN §4); otherwise 409. */
  async cancel(caller: Caller, id: string) {
    await this.load(caller, id);
    await this.deps.sql.transaction(async () => {
      // checked inside the transaction: a payment applied since the read above must win (409)
      const intent = await this.deps.machine.load(id);
      if (intent.received_amount > 0n || (intent.status !== 'CREATED' && intent.status !== 'AWAITING_PAYMENT')) {
        throw new ApiError('CONFLICT', `a ${intent.status} funding intent cannot be cancelled; only one that has received nothing can`);
      }
      await this.deps.machine.transition(id, 'CANCELLED', 'cancelled by the application');
    });
    return this.present((await this.deps.repo.findById(id))!);
  }

  /**
   * Returns once the intent has left CREATED (its deposit account is on chain), waiting a few
   * ledgers at most; then a retryable 409 (payable-wait.ts). For operations that need the account.
   */
  async untilPayable(id: string): Promise<void> {
    await this.deps.payable.until(id);
  }

  async history(id: string) {
    return this.deps.repo.history(id);
  }

  private async present(intent: FundingIntentRecord) {
    return this.deps.views.one(intent);
  }
}
