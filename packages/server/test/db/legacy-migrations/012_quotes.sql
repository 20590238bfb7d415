-- Quotes, route executions, and what an accepted quote changes on its intent.
-- Money columns are INTEGER stroops; timestamps ISO 8601 UTC with milliseconds.

CREATE TABLE quotes (
  id TEXT PRIMARY KEY,
  application_id TEXT NOT NULL,
  environment TEXT NOT NULL,
  -- null for a simple quote (POST /v1/quotes)
  funding_intent_id TEXT REFERENCES funding_intents(id),
  type TEXT NOT NULL CHECK (type IN ('EXACT_INPUT', 'EXACT_OUTPUT')),
  status TEXT NOT NULL CHECK (status IN ('ACTIVE', 'LOCKED', 'EXECUTING', 'EXECUTED', 'EXPIRED', 'SUPERSEDED', 'FAILED')),
  stellar_network TEXT NOT NULL,
  source_asset TEXT NOT NULL,
  -- what the payer sends (slippage margin included) and what the conversion should consume
  source_amount INTEGER NOT NULL,
  source_expected_amount INTEGER NOT NULL,
  destination_asset TEXT NOT NULL,
  destination_address TEXT,
  destination_amount INTEGER NOT NULL,
  destination_minimum_amount INTEGER NOT NULL,
  route_type TEXT NOT NULL,
  route_provider TEXT NOT NULL,
  -- steps, path (asset keys), estimated duration, confidence, price impact, score
  route_json TEXT NOT NULL,
  fees_json TEXT NOT NULL,
  fee_total INTEGER NOT NULL,
  exchange_rate TEXT NOT NULL,
  slippage_bps INTEGER NOT NULL,
  failure_code TEXT,
  failure_message TEXT,
  expires_at TEXT NOT NULL,
  lock_expires_at TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX quotes_list ON quotes(application_id, environment, created_at, id);
CREATE INDEX quotes_by_intent ON quotes(funding_intent_id, status);

CREATE TABLE route_executions (
  id TEXT PRIMARY KEY,
  -- one execution per quote: a second worker can never convert twice
  quote_id TEXT NOT NULL UNIQUE REFERENCES quotes(id),
  funding_intent_id TEXT NOT NULL REFERENCES funding_intents(id),
  application_id TEXT NOT NULL,
  environment TEXT NOT NULL,
  provider TEXT NOT NULL,
  provider_execution_id TEXT,
  route_type TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('PENDING', 'RUNNING', 'PAUSED', 'SUCCEEDED', 'FAILED')),
  phase TEXT NOT NULL CHECK (phase IN ('CREATED', 'AWAITING_SOURCE_FUNDS', 'PRICING', 'SUBMITTING', 'CONFIRMING', 'COMPLETED')),
  transaction_hashes TEXT NOT NULL DEFAULT '[]',
  source_asset TEXT NOT NULL,
  -- the most the conversion may spend (the quote's source amount; all received funds after a resume)
  send_max INTEGER NOT NULL,
  destination_amount INTEGER NOT NULL,
  -- what the conversion really spent; the rest of the received source funds is ROUTE_REMAINDER
  source_consumed INTEGER,
  -- the signed path payment, stored BEFORE submission so a restart finds or resubmits it
  envelope_xdr TEXT,
  failure_code TEXT,
  failure_message TEXT,
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at TEXT NOT NULL,
  started_at TEXT,
  completed_at TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX route_executions_to_run ON route_executions(status, next_attempt_at);

-- What the payer sends once a quote in another asset is accepted (null = the requirement itself).
ALTER TABLE funding_intents ADD COLUMN source_asset TEXT;
ALTER TABLE funding_intents ADD COLUMN source_amount INTEGER;
ALTER TABLE funding_intents ADD COLUMN route_type TEXT NOT NULL DEFAULT 'DIRECT_STELLAR';
ALTER TABLE funding_intents ADD COLUMN quote_id TEXT;
