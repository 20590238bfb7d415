/** The collection accounts creates of `muxed` intents read: the database, then memory (an active one never changes). */
import type { CollectionAccount, CollectionSource } from '../records/deposit-accounts.js';
import type { CollectionRepo } from './collection-repo.js';

export function collectionSource(repo: CollectionRepo, networkName: string, serves: (environment: string) => boolean): CollectionSource {
  const known = new Map<string, CollectionAccount>();
  return {
    async collectionFor(environment, asset) {
      if (!serves(environment)) return null;
      const cached = known.get(asset);
      if (cached) return cached;
      const row = await repo.find(networkName, asset);
      if (!row || row.status !== 'ACTIVE') return null;
      const account = { address: row.address, sealed: row.secret_encrypted };
      known.set(asset, account);
      return account;
    },
  };
}
