import type { Migration } from './migration.js';

// Every start gives intents made before hosted links had secrets their secret
// (FundingIntentsService.giveOldIntentsLinks). Partial, so that look-up reads only such rows: once
// they have their secrets the index is empty, and a start no longer scans every intent to find
// none. New intents are made with a secret and never enter it. Spelled the same on both engines.
export const migration: Migration = {
  version: 32,
  name: '032_intents_without_link_index',
  up(t) {
    return [t.raw('CREATE INDEX funding_intents_without_link ON funding_intents (id) WHERE checkout_secret IS NULL')];
  },
};
