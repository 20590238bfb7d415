import type { Migration } from './migration.js';

// An application's open unpaid intents, counted against FUNDKIT_MAX_OPEN_INTENTS on create
// (resources/funding-intents/open-intents.ts): partial, so it holds only the intents that still
// wait for money and the count reads no others. Spelled the same on both engines.
export const migration: Migration = {
  version: 28,
  name: '028_open_intents_index',
  up(t) {
    return [
      t.raw("CREATE INDEX funding_intents_open ON funding_intents (application_id, environment) WHERE status IN ('CREATED', 'AWAITING_PAYMENT')"),
    ];
  },
};
