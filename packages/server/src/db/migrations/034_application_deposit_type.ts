import type { Migration } from './migration.js';

// An application's default deposit type (DESIGN §11): what a create without `deposit_type` gets.
// `account` for every existing application, so nothing changes until its owner says so.
export const migration: Migration = {
  version: 34,
  name: '034_application_deposit_type',
  up(t) {
    return [t.schema.alterTable('applications').addColumn('default_deposit_type', 'text', (c) => c.notNull().defaultTo('account'))];
  },
};
