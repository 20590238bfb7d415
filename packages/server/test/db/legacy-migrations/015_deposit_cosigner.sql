-- The key every account of a deposit batch has as a co-signer (the treasury, issue 14): the
-- treasury alone then signs for those accounts, so one transaction can settle up to 100 of
-- them within Stellar's 20 signatures. NULL for accounts created before (their own key signs).
ALTER TABLE deposit_batches ADD COLUMN cosigner TEXT;
