-- Deposit accounts prepared ahead of demand (issue 14): creating an intent never waits for the chain.
-- A batch is one treasury transaction creating many sponsored, trust-lined accounts. Its keys are
-- stored (encrypted) with the batch BEFORE submission and its envelope as it is submitted, so a
-- crash after submission can look the envelope up or resubmit it unchanged: no account is ever
-- created on chain whose key we lost.
CREATE TABLE deposit_batches (
  id TEXT PRIMARY KEY,
  network TEXT NOT NULL,
  environment TEXT NOT NULL,
  -- PENDING (keys stored; envelope once built) → APPLIED, or FAILED (nothing was created)
  status TEXT NOT NULL,
  envelope_xdr TEXT,
  transaction_hash TEXT,
  failure_code TEXT,
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX deposit_batches_pending ON deposit_batches(status, next_attempt_at);

-- The warm pool: one row per account created for no intent yet. Claimable once its batch applied
-- (transaction_hash set) and until claimed_at; a create claims one in its own transaction.
CREATE TABLE deposit_pool (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  network TEXT NOT NULL,
  environment TEXT NOT NULL,
  asset TEXT NOT NULL,
  address TEXT NOT NULL UNIQUE,
  -- AES-256-GCM with the deposit secrets key, exactly as deposit_accounts.secret_encrypted
  secret_encrypted TEXT NOT NULL,
  batch_id TEXT NOT NULL REFERENCES deposit_batches(id),
  transaction_hash TEXT,
  created_at TEXT NOT NULL,
  activated_at TEXT,
  claimed_at TEXT
);
CREATE INDEX deposit_pool_ready ON deposit_pool(network, environment, asset, claimed_at, activated_at, id);

-- A PROVISIONING deposit account (an intent created while the pool was empty) rides in a batch too.
ALTER TABLE deposit_accounts ADD COLUMN provision_batch_id TEXT REFERENCES deposit_batches(id);
CREATE INDEX deposit_accounts_provisioning ON deposit_accounts(status, provision_batch_id);
