-- The payment pipeline: observed payments, settlements, the double-entry ledger, refunds,
-- deposit-account watching and the platform's own Stellar keys.
-- Money columns are INTEGER stroops; timestamps ISO 8601 UTC with milliseconds.

-- Platform keys (the treasury), AES-256-GCM under the master key.
CREATE TABLE stellar_keys (
  role TEXT PRIMARY KEY,
  network TEXT NOT NULL,
  public_key TEXT NOT NULL,
  secret_encrypted TEXT NOT NULL,
  created_at TEXT NOT NULL
);

-- Deposit accounts the observer watches, by address (written by the provisioner, before the
-- intent row exists). `cursor` is the paging token of the last record PROCESSED.
CREATE TABLE deposit_watch (
  address TEXT PRIMARY KEY,
  network TEXT NOT NULL,
  provision_tx_hash TEXT,
  cursor TEXT NOT NULL DEFAULT '',
  created_at TEXT NOT NULL
);

CREATE TABLE payments (
  id TEXT PRIMARY KEY,
  funding_intent_id TEXT NOT NULL REFERENCES funding_intents(id),
  application_id TEXT NOT NULL,
  environment TEXT NOT NULL,
  stellar_network TEXT NOT NULL,
  asset_code TEXT NOT NULL,
  stellar_asset TEXT NOT NULL,
  amount INTEGER NOT NULL,
  -- the part counted toward the requirement; amount - applied_amount is surplus
  applied_amount INTEGER NOT NULL DEFAULT 0,
  payer_address TEXT NOT NULL,
  destination_address TEXT NOT NULL,
  transaction_hash TEXT NOT NULL,
  -- Horizon operation id: a replay or a second observer can never apply a payment twice
  operation_id TEXT NOT NULL UNIQUE,
  paging_token TEXT NOT NULL,
  operation_type TEXT NOT NULL,
  ledger INTEGER NOT NULL,
  memo_type TEXT,
  memo_value TEXT,
  status TEXT NOT NULL CHECK (status IN ('DETECTED', 'CONFIRMED', 'UNAPPLIED', 'FAILED')),
  failure_code TEXT,
  failure_message TEXT,
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at TEXT NOT NULL,
  detected_at TEXT NOT NULL,
  confirmed_at TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX payments_list ON payments(application_id, environment, created_at, id);
CREATE INDEX payments_by_intent ON payments(funding_intent_id, created_at, id);
CREATE INDEX payments_to_confirm ON payments(status, next_attempt_at);

CREATE TABLE settlements (
  id TEXT PRIMARY KEY,
  -- one settlement per intent: a crash or a second worker can never settle twice
  funding_intent_id TEXT NOT NULL UNIQUE REFERENCES funding_intents(id),
  application_id TEXT NOT NULL,
  environment TEXT NOT NULL,
  payment_id TEXT NOT NULL REFERENCES payments(id),
  stellar_network TEXT NOT NULL,
  route TEXT NOT NULL CHECK (route IN ('direct', 'path_payment')),
  source_asset TEXT NOT NULL,
  source_amount INTEGER NOT NULL,
  destination_asset TEXT NOT NULL,
  destination_address TEXT NOT NULL,
  destination_amount INTEGER NOT NULL,
  transaction_hash TEXT,
  -- the signed transfer, stored BEFORE it is submitted, so a restart resubmits or finds it
  envelope_xdr TEXT,
  transfer_transaction_hash TEXT,
  protocol_settlement_id TEXT,
  protocol_contract_id TEXT,
  protocol_create_transaction_hash TEXT,
  protocol_confirm_transaction_hash TEXT,
  status TEXT NOT NULL CHECK (status IN ('PENDING', 'SUBMITTED', 'CONFIRMED', 'FAILED')),
  reconciliation_status TEXT NOT NULL DEFAULT 'UNRECONCILED' CHECK (reconciliation_status IN ('UNRECONCILED', 'RECONCILED', 'MISMATCHED')),
  fail_on_submit INTEGER NOT NULL DEFAULT 0,
  failure_code TEXT,
  failure_message TEXT,
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at TEXT NOT NULL,
  submitted_at TEXT,
  confirmed_at TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX settlements_list ON settlements(application_id, environment, created_at, id);
CREATE INDEX settlements_to_run ON settlements(status, next_attempt_at);

-- Test helper: the intent's next settlement fails.
CREATE TABLE settlement_failure_flags (
  funding_intent_id TEXT PRIMARY KEY REFERENCES funding_intents(id),
  created_at TEXT NOT NULL
);

-- Double entry: every journal's debits equal its credits; balances are sums of entries.
CREATE TABLE ledger_entries (
  id TEXT PRIMARY KEY,
  application_id TEXT NOT NULL,
  environment TEXT NOT NULL,
  journal_id TEXT NOT NULL,
  account TEXT NOT NULL CHECK (account IN ('APPLICATION_BALANCE', 'SETTLEMENT_CLEARING', 'REFUND_CLEARING', 'FEES')),
  direction TEXT NOT NULL CHECK (direction IN ('CREDIT', 'DEBIT')),
  type TEXT NOT NULL CHECK (type IN ('INTENT_CREDIT', 'REFUND', 'FEE', 'ADJUSTMENT')),
  asset TEXT NOT NULL,
  amount INTEGER NOT NULL CHECK (amount > 0),
  funding_intent_id TEXT,
  settlement_id TEXT,
  refund_id TEXT,
  description TEXT NOT NULL,
  created_at TEXT NOT NULL
);
CREATE INDEX ledger_entries_list ON ledger_entries(application_id, environment, created_at, id);
CREATE INDEX ledger_entries_by_journal ON ledger_entries(journal_id);
-- exactly one credit per credited intent
CREATE UNIQUE INDEX ledger_one_credit_per_intent ON ledger_entries(funding_intent_id, account)
  WHERE type = 'INTENT_CREDIT';

CREATE TABLE refunds (
  id TEXT PRIMARY KEY,
  funding_intent_id TEXT NOT NULL REFERENCES funding_intents(id),
  payment_id TEXT NOT NULL REFERENCES payments(id),
  application_id TEXT NOT NULL,
  environment TEXT NOT NULL,
  asset_code TEXT NOT NULL,
  stellar_asset TEXT NOT NULL,
  amount INTEGER NOT NULL CHECK (amount > 0),
  -- DEPOSIT: paid from the deposit account; BALANCE: MANUAL, from the ledger balance (treasury pays)
  source TEXT NOT NULL CHECK (source IN ('DEPOSIT', 'BALANCE')),
  destination_network TEXT NOT NULL,
  destination_address TEXT NOT NULL,
  memo_type TEXT,
  memo_value TEXT,
  reason TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('PENDING', 'PROCESSING', 'COMPLETED', 'FAILED')),
  envelope_xdr TEXT,
  transaction_hash TEXT,
  failure_code TEXT,
  failure_message TEXT,
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at TEXT NOT NULL,
  created_at TEXT NOT NULL,
  completed_at TEXT,
  updated_at TEXT NOT NULL
);
CREATE INDEX refunds_list ON refunds(application_id, environment, created_at, id);
CREATE INDEX refunds_by_payment ON refunds(payment_id, created_at, id);
CREATE INDEX refunds_to_run ON refunds(status, next_attempt_at);
-- at most one refund of a payment in progress at a time (INTERFACE: a second one is 409)
CREATE UNIQUE INDEX refunds_one_in_progress ON refunds(payment_id) WHERE status IN ('PENDING', 'PROCESSING');
