/**
 * vitest globalSetup: one PostgreSQL cluster for the whole run, its URL provided to tests as
 * `inject('postgresUrl')` (null when PostgreSQL is not installed and not required). Tests make
 * their own database in it (test/helpers/postgres.ts).
 */
import type { TestProject } from 'vitest/node';
import { findPostgresBin, startPostgresCluster } from './postgres-cluster.js';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresUrl: string | null;
  }
}

export default async function setup(project: TestProject): Promise<(() => void) | undefined> {
  const bin = findPostgresBin();
  if (!bin) {
    // CI (and anyone who sets it) must test PostgreSQL: .ci/run installs it.
    if (process.env.CI || process.env.FUNDKIT_TEST_POSTGRES === 'required') {
      throw new Error('PostgreSQL is not installed (apt-get install postgresql), and CI tests both engines');
    }
    // a PostgreSQL project (server-postgres, e2e-postgres) without PostgreSQL fails, saying why:
    // skipped, it would pass having tested nothing (scripts/vitest-run.mjs fails it anyway)
    if (project.config.env?.FUNDKIT_TEST_ENGINE === 'postgres') {
      throw new Error(`PostgreSQL is not installed (apt-get install postgresql): the ${project.name} project runs the tests on it. `
        + 'To run the SQLite half alone: node scripts/vitest-run.mjs --project server (and the other projects by name)');
    }
    console.warn(`\n  PostgreSQL is not installed: the ${project.name} project's tests of it are skipped (apt-get install postgresql to run them)\n`);
    project.provide('postgresUrl', null);
    return undefined;
  }
  const cluster = await startPostgresCluster(bin);
  project.provide('postgresUrl', cluster.url);
  return () => cluster.stop();
}
