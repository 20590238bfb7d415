-- Checkout sessions (issue 8). Numbered 008 after the issue so concurrent resource migrations
-- (payments, refunds, ledger, webhooks) taking 002… cannot collide with it.

CREATE TABLE checkout_sessions (
  id TEXT PRIMARY KEY,
  application_id TEXT NOT NULL REFERENCES applications(id),
  environment TEXT NOT NULL CHECK (environment IN ('test', 'live')),
  funding_intent_id TEXT NOT NULL REFERENCES funding_intents(id),
  -- expiry of the newest session token issued for it (create or resume)
  expires_at TEXT NOT NULL,
  created_at TEXT NOT NULL
);
CREATE INDEX checkout_sessions_intent ON checkout_sessions (funding_intent_id);

-- Handoff tokens: only their SHA-256 is stored; single use (used_at), 60 s, optional PKCE S256.
CREATE TABLE checkout_handoffs (
  token_hash TEXT PRIMARY KEY,
  session_id TEXT NOT NULL REFERENCES checkout_sessions(id),
  code_challenge TEXT,
  expires_at TEXT NOT NULL,
  used_at TEXT,
  created_at TEXT NOT NULL
);
CREATE INDEX checkout_handoffs_session ON checkout_handoffs (session_id);
