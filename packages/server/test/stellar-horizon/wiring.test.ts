/** FUNDKIT_STELLAR=testnet|pubnet builds the Horizon adapter (no request is made at start-up). */
import { pino } from 'pino';
import { afterEach, expect, it } from 'vitest';
import { createServer, type FundkitServer } from '../../src/index.js';
import { HorizonNetwork } from '../../src/stellar/horizon/index.js';

const silent = pino({ level: 'silent' });
let server: FundkitServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

it('testnet with FUNDKIT_HORIZON_URL: the pipeline observes through HorizonNetwork, no sandbox (nothing at /sandbox/*)', async () => {
  server = await createServer({ env: { FUNDKIT_STELLAR: 'testnet', FUNDKIT_HORIZON_URL: 'http://127.0.0.1:8000/', FUNDKIT_DB: ':memory:', FUNDKIT_MASTER_KEY: 'a'.repeat(64) }, logger: silent });
  const { stellar, observer } = server.services.pipeline.pipeline;
  expect(stellar!.network).toBeInstanceOf(HorizonNetwork);
  expect(stellar!.network).toMatchObject({ kind: 'testnet', horizonUrl: 'http://127.0.0.1:8000', passphrase: 'Test SDF Network ; September 2015' });
  // the sandbox link is what app.ts forwards /sandbox/horizon, /sandbox/rpc and /sandbox/friendbot to
  expect(stellar!.sandbox).toBeNull();
  expect(observer).not.toBeNull();
});

it('pubnet defaults to SDF Horizon and the pubnet issuers', async () => {
  server = await createServer({ env: { FUNDKIT_STELLAR: 'pubnet', FUNDKIT_DB: ':memory:', FUNDKIT_MASTER_KEY: 'a'.repeat(64) }, logger: silent });
  const network = server.services.pipeline.pipeline.stellar!.network;
  expect(network).toMatchObject({ kind: 'pubnet', horizonUrl: 'https://horizon.stellar.org', passphrase: 'Public Global Stellar Network ; September 2015' });
  expect(network.assets.USDC.issuer).toBe('GA5ZSEJYB37JRC5AVCIA5MOP4RHTM335X2KGX3IHOJAPP5RE34K4KZVN');
});
