/** A database of its own for a test, in the run's PostgreSQL cluster (test/helpers/postgres-global.ts). */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import type {} from './postgres-global.js';

/** The cluster's URL, or null when PostgreSQL is not installed (and not required). */
export const postgresUrl: string | null = inject('postgresUrl');

/** Creates an empty database and returns its URL. */
export async function freshPostgresDatabase(label = 'test'): Promise<string> {
  if (!postgresUrl) throw new Error('no PostgreSQL cluster in this run');
  const name = `fk_${label.replace(/\W/g, '_').slice(0, 30)}_${randomBytes(4).toString('hex')}`.toLowerCase();
  const admin = new pg.Client({ connectionString: postgresUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(postgresUrl);
  url.pathname = `/${name}`;
  return url.toString();
}
