-- Worker loops poll funding intents by status and by deposit account many times a second: without
-- these indexes each poll scanned every intent (profiled: with 100k intents, the deposit pool's
-- `waiting`, the retirer's `claim`, the observer's `byDepositAddress`, the expirer and the settler
-- took more CPU than the requests they share one event loop with).
CREATE INDEX funding_intents_by_deposit_account ON funding_intents(deposit_account_id);
CREATE INDEX funding_intents_by_status ON funding_intents(status, expires_at);
CREATE INDEX quotes_locked ON quotes(status, lock_expires_at);
