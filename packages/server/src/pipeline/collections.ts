/**
 * Onboards the treasury's collection accounts (one per asset: the accounts `muxed` intents are
 * paid to): each created once with sponsored reserves, trust-lined and co-signed by the treasury,
 * like a deposit account that is never retired. Run at start in sandbox mode and by
 * `fundkit treasury` on a real network; creates of intents only read the rows.
 */
import type { Logger } from 'pino';
import { decryptSecret, encryptSecret } from '../lib/crypto.js';
import { isoNow } from '../lib/time.js';
import { toSdkAsset, type StellarNetwork } from '../stellar/index.js';
import { NativeKeypair } from '../stellar/keypair.js';
import type { CollectionAccountRow, CollectionRepo } from './collection-repo.js';
import { sponsoredAccountOps } from './provision.js';
import type { TreasurySigner } from './tx.js';

export const COLLECTION_ASSETS = ['XLM', 'USDC', 'EURC'] as const;

export interface CollectionDeps {
  repo: CollectionRepo;
  network: StellarNetwork;
  networkName: string;
  signer: TreasurySigner;
  secretsKey: Buffer;
  logger?: Logger;
}

/** Every collection account ACTIVE on chain; returns them. Safe to run on several servers at once. */
export async function onboardCollections(deps: CollectionDeps): Promise<CollectionAccountRow[]> {
  for (const asset of COLLECTION_ASSETS) await onboard(deps, asset);
  return deps.repo.all(deps.networkName);
}

async function onboard(deps: CollectionDeps, asset: (typeof COLLECTION_ASSETS)[number]): Promise<void> {
  const { repo, network, networkName, secretsKey } = deps;
  let row = await repo.find(networkName, asset);
  if (!row) {
    const keypair = NativeKeypair.random();
    // the row first: of two servers, the one whose row is kept makes the account
    await repo.insert({ network: networkName, asset, address: keypair.publicKey(), secret_encrypted: encryptSecret(secretsKey, keypair.secret()), status: 'PROVISIONING', created_at: isoNow() });
    row = (await repo.find(networkName, asset))!;
  }
  if (row.status === 'ACTIVE') return;
  const address = row.address;
  if (!await network.loadAccount(address)) {
    const keypair = NativeKeypair.fromSecret(decryptSecret(secretsKey, row.secret_encrypted));
    const out = await deps.signer.run(null, () => ({
      operations: sponsoredAccountOps(deps.signer.treasury.publicKey(), address, toSdkAsset(network.assets[asset])), signers: [keypair],
    }), () => undefined);
    // another server's creation of the same account won the race: it exists all the same
    if (!out.successful && !await network.loadAccount(address)) throw new Error(`could not create the ${asset} collection account ${address}: ${out.code}`);
  }
  await repo.activate(networkName, asset);
  deps.logger?.info({ asset, address, network: networkName }, 'collection account active (muxed deposits)');
}
