/**
 * A throwaway PostgreSQL cluster for one test run: `initdb` on a temp directory, `pg_ctl start` on
 * a free loopback port, and at the end `pg_ctl stop -m immediate` and the directory removed. It
 * uses the machine's PostgreSQL binaries (Debian's `postgresql` package; `.ci/run` installs it
 * when missing) and never a server already running there. initdb refuses root, so as root the
 * cluster runs as the `postgres` user the package creates.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

export interface PostgresCluster {
  /** postgres://postgres@127.0.0.1:PORT/postgres (trust authentication on loopback) */
  url: string;
  /** the postmaster's process id (the bench reads its processes' CPU time) */
  pid(): number;
  stop(): void;
}

/** The directory with initdb and pg_ctl: FUNDKIT_PG_BIN, else Debian's newest, else pg_config's, else PATH's. */
export function findPostgresBin(env: NodeJS.ProcessEnv = process.env): string | null {
  if (env.FUNDKIT_PG_BIN) return env.FUNDKIT_PG_BIN;
  const debian = '/usr/lib/postgresql';
  if (existsSync(debian)) {
    const majors = readdirSync(debian).filter((v) => /^\d+$/.test(v)).sort((a, b) => Number(b) - Number(a));
    for (const major of majors) if (existsSync(join(debian, major, 'bin', 'initdb'))) return join(debian, major, 'bin');
  }
  const pgConfig = spawnSync('pg_config', ['--bindir'], { encoding: 'utf8' });
  const bin = pgConfig.status === 0 ? pgConfig.stdout.trim() : '';
  if (bin && existsSync(join(bin, 'initdb'))) return bin;
  const onPath = spawnSync('sh', ['-c', 'command -v initdb'], { encoding: 'utf8' });
  return onPath.status === 0 ? dirname(onPath.stdout.trim()) : null;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export interface ClusterOptions {
  /**
   * PostgreSQL's own durability settings (fsync, synchronous commit, full page writes), for the
   * bench; else the tests' cluster trades them for speed, as it lives for one run.
   */
  durable?: boolean;
}

export async function startPostgresCluster(bin: string, { durable = false }: ClusterOptions = {}): Promise<PostgresCluster> {
  const dir = mkdtempSync(join(tmpdir(), 'fundkit-pg-'));
  const asRoot = process.getuid?.() === 0;
  // as root: the cluster's files and processes belong to `postgres`
  const run = (program: string, args: string[]) => {
    const [command, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', join(bin, program), ...args]] : [join(bin, program), args];
    execFileSync(command, argv, { stdio: ['ignore', 'ignore', 'pipe'] });
  };
  if (asRoot) {
    const { uid, gid } = postgresUser();
    chownSync(dir, uid, gid);
  }
  const data = join(dir, 'data');
  run('initdb', ['-D', data, '-U', 'postgres', '-A', 'trust', '--no-sync', '-E', 'UTF8', '--locale=C']);
  const port = await freePort();
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c max_connections=400`
    + (durable ? '' : ' -c fsync=off -c synchronous_commit=off -c full_page_writes=off');
  run('pg_ctl', ['-D', data, '-o', options, '-l', join(dir, 'log'), '-w', 'start']);
  let stopped = false;
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    pid: () => Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0]),
    stop() {
      if (stopped) return;
      stopped = true;
      try {
        run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

function postgresUser(): { uid: number; gid: number } {
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
  try {
    return { uid: id('-u'), gid: id('-g') };
  } catch {
    throw new Error('running as root, the test PostgreSQL cluster needs the `postgres` user (apt-get install postgresql creates it)');
  }
}
