-- The deposit pool asks many times a second for the oldest CREATED intents whose accounts are in
-- no batch yet. Through funding_intents_by_status it read and sorted every CREATED intent on each
-- ask: with the ~10,000 a burst of creates leaves waiting at a 5 s ledger, one ask took 300-500 ms
-- of the event loop (profiled). In (status, created_at, id) order it reads the oldest first and
-- stops at its limit, skipping only accounts already in a batch (at most a few ledgers' worth).
CREATE INDEX funding_intents_by_status_created ON funding_intents(status, created_at, id);
