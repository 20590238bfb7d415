-- A batch's members, activation and release look accounts up by batch: without these, each of
-- those statements scanned every deposit account and pool row ever made (most of the CPU of
-- provisioning once a server had made some thousands).
CREATE INDEX deposit_accounts_by_batch ON deposit_accounts(provision_batch_id);
CREATE INDEX deposit_pool_by_batch ON deposit_pool(batch_id);
