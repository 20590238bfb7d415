/**
 * Client overhead per call: @fundkit/sdk vs raw openapi-fetch vs plain fetch, against a tiny local
 * server answering a fixed FundingIntent (the spec's example), so only the client is measured.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Fundkit } from '@fundkit/sdk';
import createClient from 'openapi-fetch';
import { parse } from 'yaml';
import { gzSize, median, ROOT, RUNS } from './lib.js';

const CALLS = 3_000;
/** calls in a row per client before the next client's turn */
const BLOCK = 100;
const ID = 'fi_01JD5ZK4M5N6P7Q8R9S0T1V2W3';

/**
 * Mean microseconds per call: RUNS × CALLS sequential calls per client, in blocks of BLOCK that take
 * turns between clients (rotating who goes first), reported as the median block. The machine is
 * shared, so whole runs of 3,000 calls in a fixed order met different loads: identical code read
 * 0.96× to 1.24× over openapi-fetch from one run to the next. Interleaved blocks meet the same load.
 */
async function perCall(clients: Record<string, () => Promise<unknown>>): Promise<Record<string, number>> {
  const entries = Object.entries(clients);
  for (let i = 0; i < 1_000; i++) for (const [, call] of entries) await call();
  const blocks: Record<string, number[]> = Object.fromEntries(entries.map(([k]) => [k, []]));
  for (let b = 0; b < (RUNS * CALLS) / BLOCK; b++) {
    for (let j = 0; j < entries.length; j++) {
      const [name, call] = entries[(b + j) % entries.length]!;
      const start = performance.now();
      for (let i = 0; i < BLOCK; i++) await call();
      blocks[name]!.push(((performance.now() - start) * 1000) / BLOCK);
    }
  }
  return Object.fromEntries(Object.entries(blocks).map(([k, v]) => [k, median(v)]));
}

export interface SdkFigures { sdkUs: number; openapiFetchUs: number; fetchUs: number; sdkGz: number; openapiFetchGz: number }

export async function benchSdk(): Promise<SdkFigures> {
  const doc = parse(readFileSync(join(ROOT, 'spec/openapi.yaml'), 'utf8')) as { components: { examples: Record<string, { value: unknown }> } };
  const body = JSON.stringify(doc.components.examples.FundingIntent?.value ?? { id: ID, object: 'funding_intent' });
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'x-request-id': 'req_bench' }).end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    const fk = new Fundkit({ apiKey: 'sk_test_bench000000000000000000000', baseUrl });
    const raw = createClient({ baseUrl, headers: { authorization: 'Bearer sk_test_bench000000000000000000000' } });
    const url = `${baseUrl}/v1/funding-intents/${ID}`;
    const us = await perCall({
      sdk: () => fk.fundingIntents.retrieve(ID),
      // untyped here: openapi-fetch's own cost is what is compared, not its types
      openapiFetch: () => (raw.GET as (path: string, init: object) => Promise<unknown>)('/v1/funding-intents/{id}', { params: { path: { id: ID } } }),
      fetch: async () => (await fetch(url, { headers: { authorization: 'Bearer sk_test_bench000000000000000000000' } })).json(),
    });
    return {
      sdkUs: us.sdk!, openapiFetchUs: us.openapiFetch!, fetchUs: us.fetch!,
      sdkGz: gzSize(join(ROOT, 'packages/sdk/dist/index.js')),
      openapiFetchGz: gzSize(join(ROOT, 'bench/node_modules/openapi-fetch/dist/index.mjs')),
    };
  } finally {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  }
}
