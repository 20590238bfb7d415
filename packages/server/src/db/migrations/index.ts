import { migration as core } from './001_core.js';
import { migration as webhooks } from './006_webhooks.js';
import { migration as checkout } from './008_checkout.js';
import { migration as payments } from './010_payments.js';
import { migration as quotes } from './012_quotes.js';
import { migration as depositPool } from './014_deposit_pool.js';
import { migration as depositCosigner } from './015_deposit_cosigner.js';
import { migration as workerScanIndexes } from './016_worker_scan_indexes.js';
import { migration as depositBatchIndexes } from './017_deposit_batch_indexes.js';
import { migration as waitingIntentsIndex } from './018_waiting_intents_index.js';
import { migration as fundingIntentVersions } from './019_funding_intent_versions.js';
import { migration as sandboxLedger } from './020_sandbox_ledger.js';
import { migration as serverInstances } from './021_server_instances.js';
import { migration as leases } from './022_leases.js';
import { migration as deliveryClaims } from './023_delivery_claims.js';
import { migration as eventSequence } from './024_event_sequence.js';
import { migration as sandboxPending } from './025_sandbox_pending.js';
import { migration as networkCursors } from './026_network_cursors.js';
import { migration as cacheGenerations } from './027_cache_generations.js';
import { migration as openIntentsIndex } from './028_open_intents_index.js';
import { migration as checkoutLinks } from './030_checkout_links.js';
import { migration as rateLimits } from './031_rate_limits.js';
import { migration as intentsWithoutLink } from './032_intents_without_link_index.js';
import { migration as muxedDeposits } from './033_muxed_deposits.js';
import { migration as applicationDepositType } from './034_application_deposit_type.js';
import { migration as networkIdentity } from './035_network_identity.js';
import { migration as dropSandboxLedger } from './036_drop_sandbox_ledger.js';
import type { Migration } from './migration.js';

/**
 * Every migration, in version order: the one schema of SQLite and PostgreSQL. Imported statically
 * so the bundle carries them. The .sql files existing SQLite databases were migrated with before
 * are kept in test/db/legacy-migrations, where a test checks these build the same schema.
 */
export const MIGRATIONS: Migration[] = [
  core, webhooks, checkout, payments, quotes, depositPool, depositCosigner, workerScanIndexes, depositBatchIndexes,
  waitingIntentsIndex, fundingIntentVersions, sandboxLedger, serverInstances, leases, deliveryClaims,
  eventSequence, sandboxPending, networkCursors, cacheGenerations, openIntentsIndex, checkoutLinks, rateLimits, intentsWithoutLink,
  muxedDeposits, applicationDepositType, networkIdentity, dropSandboxLedger,
];
