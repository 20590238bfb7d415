-- Every intent row carries a version that changes whenever the row does, whoever changes it (a
-- trigger, so plain SQL too). A list reads (id, row_version) from its index, and reads in full only
-- the rows whose version differs from the one it kept: with the JSON text of every row as the
-- check, that read was ~90 µs of a list of 50, with the versions from the index ~26 µs.
-- Versions are random (53 bits), not counters: a row deleted and inserted again under its id
-- cannot come back with the version a reader kept.
ALTER TABLE funding_intents ADD COLUMN row_version INTEGER NOT NULL DEFAULT 0;
UPDATE funding_intents SET row_version = random() >> 11;
CREATE TRIGGER funding_intents_version_on_insert AFTER INSERT ON funding_intents WHEN NEW.row_version = 0
BEGIN
  UPDATE funding_intents SET row_version = random() >> 11 WHERE id = NEW.id;
END;
CREATE TRIGGER funding_intents_version_on_update AFTER UPDATE ON funding_intents WHEN NEW.row_version = OLD.row_version
BEGIN
  UPDATE funding_intents SET row_version = random() >> 11 WHERE id = NEW.id;
END;
DROP INDEX funding_intents_list;
CREATE INDEX funding_intents_list ON funding_intents(application_id, environment, created_at, id, row_version);
