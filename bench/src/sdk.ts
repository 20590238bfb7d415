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
const ID = 'fi_01JD5ZK4M5N6P7Q8R9S0T1V2W3';

/** Mean microseconds per call over CALLS sequential calls; clients alternate run by run (fair JIT and socket state), median of RUNS. */
async function perCall(clients: Record<string, () => Promise<unknown>>): Promise<Record<string, number>> {
  for (const call of Object.values(clients)) for (let i = 0; i < 300; i++) await call();
  const values: Record<string, number[]> = Object.fromEntries(Object.keys(clients).map((k) => [k, []]));
  for (let r = 0; r < RUNS; r++) {
    for (const [name, call] of Object.entries(clients)) {
      const start = performance.now();
      for (let i = 0; i < CALLS; i++) await call();
      values[name]!.push(((performance.now() - start) * 1000) / CALLS);
    }
  }
  return Object.fromEntries(Object.entries(values).map(([k, v]) => [k, median(v)]));
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
