-- Webhooks: endpoints, one delivery per (event, endpoint), and every attempt of a delivery.

CREATE TABLE webhook_endpoints (
  id TEXT PRIMARY KEY,
  application_id TEXT NOT NULL REFERENCES applications(id),
  environment TEXT NOT NULL CHECK (environment IN ('test', 'live')),
  url TEXT NOT NULL,
  -- JSON array of event types
  events TEXT NOT NULL,
  description TEXT,
  enabled INTEGER NOT NULL DEFAULT 1,
  -- AES-256-GCM under a key derived from the master key: the server must sign with the plaintext
  secret_encrypted TEXT NOT NULL,
  -- after a rotation the previous secret keeps signing until previous_secret_expires_at
  previous_secret_encrypted TEXT,
  previous_secret_expires_at TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  -- soft delete: deliveries keep pointing at the row
  deleted_at TEXT
);
CREATE INDEX webhook_endpoints_list ON webhook_endpoints(application_id, environment, created_at, id);

CREATE TABLE webhook_deliveries (
  id TEXT PRIMARY KEY,
  endpoint_id TEXT NOT NULL REFERENCES webhook_endpoints(id),
  event_id TEXT NOT NULL REFERENCES events(id),
  event_type TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('PENDING', 'SUCCEEDED', 'FAILED')),
  -- attempts started so far (claims); the next claim sends attempt_count + 1
  attempt_count INTEGER NOT NULL DEFAULT 0,
  next_attempt_at TEXT,
  -- lease of the worker that claimed it; an expired lease is claimed again (at-least-once)
  locked_until TEXT,
  -- identifies the current claim, so a stale claim (lease expired, or redelivered meanwhile)
  -- records its attempt but does not overwrite the delivery's state
  claim_token TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  UNIQUE (event_id, endpoint_id)
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries(status, next_attempt_at);
CREATE INDEX webhook_deliveries_by_endpoint ON webhook_deliveries(endpoint_id, created_at, id);

CREATE TABLE webhook_attempts (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  delivery_id TEXT NOT NULL REFERENCES webhook_deliveries(id),
  number INTEGER NOT NULL,
  status_code INTEGER,
  latency_ms INTEGER,
  response_excerpt TEXT,
  error TEXT,
  attempted_at TEXT NOT NULL
);
CREATE INDEX webhook_attempts_by_delivery ON webhook_attempts(delivery_id, id);

-- Fan-out marker on the outbox: NULL until the event's deliveries exist (set in the same
-- transaction that creates them, so each event fans out exactly once).
ALTER TABLE events ADD COLUMN fanned_out_at TEXT;
CREATE INDEX events_fanout_pending ON events(created_at, id) WHERE fanned_out_at IS NULL;
