-- Core platform: accounts, applications, keys, idempotency, request logs, events outbox,
-- funding intents with their deposit accounts and status history.
-- Money columns are INTEGER stroops; timestamps are ISO 8601 UTC strings with milliseconds.

CREATE TABLE accounts (
  id TEXT PRIMARY KEY,
  email TEXT NOT NULL UNIQUE,
  password_hash TEXT NOT NULL,
  email_verified_at TEXT,
  created_at TEXT NOT NULL
);

CREATE TABLE email_verifications (
  token_hash TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts(id),
  expires_at TEXT NOT NULL,
  used_at TEXT
);

CREATE TABLE account_sessions (
  id TEXT PRIMARY KEY,
  token_hash TEXT NOT NULL UNIQUE,
  account_id TEXT NOT NULL REFERENCES accounts(id),
  created_at TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  revoked_at TEXT
);

CREATE TABLE applications (
  id TEXT PRIMARY KEY,
  account_id TEXT REFERENCES accounts(id),
  name TEXT NOT NULL,
  settlement_address TEXT,
  status TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'inactive')),
  logo_url TEXT,
  logo_file TEXT,
  logo_content_type TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX applications_by_account ON applications(account_id, created_at, id);

CREATE TABLE api_keys (
  id TEXT PRIMARY KEY,
  application_id TEXT NOT NULL REFERENCES applications(id),
  environment TEXT NOT NULL CHECK (environment IN ('test', 'live')),
  type TEXT NOT NULL CHECK (type IN ('secret', 'publishable')),
  key_hash TEXT NOT NULL UNIQUE,
  prefix TEXT NOT NULL,
  last4 TEXT NOT NULL,
  created_at TEXT NOT NULL,
  last_used_at TEXT,
  exposed_at TEXT,
  revoked_at TEXT
);
CREATE INDEX api_keys_by_application ON api_keys(application_id, created_at, id);

CREATE TABLE idempotency_keys (
  scope TEXT NOT NULL,
  key TEXT NOT NULL,
  request_hash TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('in_progress', 'completed')),
  response_status INTEGER,
  response_body TEXT,
  created_at TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  PRIMARY KEY (scope, key)
);
CREATE INDEX idempotency_keys_by_expiry ON idempotency_keys(expires_at);

CREATE TABLE request_logs (
  id TEXT PRIMARY KEY,
  application_id TEXT NOT NULL,
  environment TEXT NOT NULL,
  key_id TEXT NOT NULL,
  method TEXT NOT NULL,
  path TEXT NOT NULL,
  status INTEGER NOT NULL,
  request_id TEXT NOT NULL,
  duration_ms INTEGER NOT NULL,
  idempotency_key TEXT,
  created_at TEXT NOT NULL
);
CREATE INDEX request_logs_by_application ON request_logs(application_id, environment, created_at, id);

-- Outbox: written in the same transaction as the state change it describes.
CREATE TABLE events (
  id TEXT PRIMARY KEY,
  type TEXT NOT NULL,
  application_id TEXT NOT NULL,
  environment TEXT NOT NULL,
  created_at TEXT NOT NULL,
  payload TEXT NOT NULL
);
CREATE INDEX events_by_application ON events(application_id, environment, created_at, id);

CREATE TABLE deposit_accounts (
  id TEXT PRIMARY KEY,
  application_id TEXT NOT NULL,
  environment TEXT NOT NULL,
  network TEXT NOT NULL,
  stellar_network TEXT NOT NULL,
  address TEXT NOT NULL UNIQUE,
  asset TEXT NOT NULL,
  -- AES-256-GCM under the master key: base64(iv | tag | ciphertext)
  secret_encrypted TEXT NOT NULL,
  status TEXT NOT NULL,
  created_at TEXT NOT NULL,
  activated_at TEXT,
  retired_at TEXT
);

CREATE TABLE funding_intents (
  id TEXT PRIMARY KEY,
  application_id TEXT NOT NULL REFERENCES applications(id),
  environment TEXT NOT NULL,
  status TEXT NOT NULL,
  requirement_amount INTEGER NOT NULL,
  requirement_asset TEXT NOT NULL,
  destination_network TEXT NOT NULL,
  destination_asset TEXT NOT NULL,
  destination_address TEXT NOT NULL,
  received_amount INTEGER NOT NULL DEFAULT 0,
  reference TEXT,
  metadata TEXT NOT NULL DEFAULT '{}',
  deposit_account_id TEXT REFERENCES deposit_accounts(id),
  expires_at TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX funding_intents_list ON funding_intents(application_id, environment, created_at, id);
CREATE INDEX funding_intents_by_reference ON funding_intents(application_id, environment, reference);

-- Append-only: one row per transition.
CREATE TABLE funding_intent_status_history (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  funding_intent_id TEXT NOT NULL REFERENCES funding_intents(id),
  from_status TEXT,
  to_status TEXT NOT NULL,
  reason TEXT,
  created_at TEXT NOT NULL
);
CREATE INDEX funding_intent_history_by_intent ON funding_intent_status_history(funding_intent_id, id);

-- Operator switches over the fixed asset registry (absent row = enabled).
CREATE TABLE asset_settings (
  code TEXT PRIMARY KEY,
  enabled INTEGER NOT NULL,
  updated_at TEXT NOT NULL
);
