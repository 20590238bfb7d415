/**
 * What open checkouts cost while nobody pays: STREAMS status streams (GET
 * /v1/public/funding-intents/{id}/status, text/event-stream) held open on one server on
 * PostgreSQL, each on its own intent. Measured as CPU time per second of wall time, of the server
 * process and of every PostgreSQL process of the cluster (Linux /proc), over SECONDS, beside the
 * same server with no stream open.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { request, type ClientRequest } from 'node:http';
import pg from 'pg';
import { SECONDS, type Child } from './lib.js';

export const STREAMS = 1_000;
/** the bench application's publishable key (engines.ts's bootstrap): it reads any of its intents */
export const PUBLISHABLE_KEY = 'pk_test_benchPublishableKey000000001';

export interface StreamCost { serverCpuMsPerS: number; databaseCpuMsPerS: number }

const TICKS = 100; // USER_HZ on Linux

/** utime + stime of a process, in ms */
function cpuMs(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS;
  } catch {
    return 0; // a backend that ended meanwhile
  }
}

/** the cluster's processes: the postmaster (its pid file) and its children */
function clusterPids(postmaster: number): number[] {
  const children = readdirSync('/proc').filter((d) => /^\d+$/.test(d)).map(Number).filter((pid) => {
    try {
      return Number(readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ')[1]) === postmaster;
    } catch {
      return false;
    }
  });
  return [postmaster, ...children];
}

async function sample(server: number, postmaster: number): Promise<StreamCost> {
  const before = { server: cpuMs(server), database: new Map(clusterPids(postmaster).map((pid) => [pid, cpuMs(pid)])) };
  await new Promise((resolve) => setTimeout(resolve, SECONDS * 1000));
  let database = 0;
  for (const pid of clusterPids(postmaster)) database += cpuMs(pid) - (before.database.get(pid) ?? 0);
  return { serverCpuMsPerS: (cpuMs(server) - before.server) / SECONDS, databaseCpuMsPerS: database / SECONDS };
}

/** Waits (60 s at most) for the server's start-up work (the deposit pool's fill) to end: two quiet seconds in a row. */
async function untilQuiet(pid: number): Promise<void> {
  let quiet = 0;
  for (let i = 0; i < 60 && quiet < 2; i++) {
    const before = cpuMs(pid);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    quiet = cpuMs(pid) - before < 50 ? quiet + 1 : 0;
  }
}

/** Opens one stream: resolves once its first view has arrived. */
function openStream(url: string, id: string): Promise<ClientRequest> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}/v1/public/funding-intents/${id}/status`, {
      headers: { authorization: `Bearer ${PUBLISHABLE_KEY}`, accept: 'text/event-stream' }, agent: false,
    }, (res) => {
      if (res.statusCode !== 200) return reject(new Error(`status stream: ${res.statusCode}`));
      res.on('data', (chunk: Buffer) => { if (chunk.includes('event: status')) resolve(req); });
      res.on('error', () => undefined);
    });
    req.on('error', reject);
    req.end();
  });
}

/** The cost of STREAMS idle streams on `child` (on `databaseUrl`), and of none. */
export async function benchStreams(child: Child, databaseUrl: string, postmaster: number): Promise<{ none: StreamCost; open: StreamCost }> {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  const ids = (await db.query<{ id: string }>('SELECT id FROM funding_intents ORDER BY id LIMIT $1', [STREAMS])).rows.map((r) => r.id);
  // the write load measured before leaves dirty pages and dead rows: their checkpoint and
  // vacuum would land in whichever sample they fall into
  await db.query('VACUUM ANALYZE');
  await db.query('CHECKPOINT');
  await db.end();
  const pid = child.process.pid!;
  await untilQuiet(pid);
  const none = await sample(pid, postmaster);
  const streams: ClientRequest[] = [];
  try {
    for (let i = 0; i < ids.length; i += 50) {
      const opened = await Promise.allSettled(ids.slice(i, i + 50).map((id) => openStream(child.url, id)));
      for (const o of opened) if (o.status === 'fulfilled') streams.push(o.value);
      const failed = opened.find((o) => o.status === 'rejected');
      if (failed) throw (failed as PromiseRejectedResult).reason;
    }
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const open = await sample(pid, postmaster);
    return { none, open };
  } finally {
    for (const stream of streams) stream.destroy();
  }
}
