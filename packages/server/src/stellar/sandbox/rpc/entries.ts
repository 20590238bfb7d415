/**
 * getLedgerEntries for the entries the sandbox's store holds as Stellar does: accounts and
 * trustlines, written as LedgerEntryData XDR from the store's rows. Keys of other kinds the
 * sandbox has none of (contract data and code, claimable balances, liquidity pools…) are not
 * found, as on a network without them; offers and data entries are not served yet.
 */
import { Keypair, StrKey, xdr } from '@stellar/stellar-sdk';
import { parseAssetKey } from '../../assets.js';
import { liabilities } from '../accounts.js';
import type { SandboxLedger } from '../ledger.js';
import type { AccountRow, SandboxStore, TrustlineRow } from '../store.js';
import { base64Format, invalidParams } from './errors.js';

/** stellar-rpc's getLedgerEntriesMaxKeys. */
export const MAX_KEYS = 200;
/** TrustLineFlags.AUTHORIZED_FLAG: the sandbox's issuers authorize every trustline. */
const AUTHORIZED = 1;

const accountId = (address: string) => Keypair.fromPublicKey(address).xdrAccountId();
const int64 = (n: bigint) => xdr.Int64.fromString(n.toString());
/** A union's arm name: a plain read of the value, where `.switch()` differs between SDK versions. */
const armOf = (u: xdr.LedgerKey | xdr.TrustLineAsset) => (u as unknown as { arm(): string }).arm();
const addressOf = (id: xdr.PublicKey) => StrKey.encodeEd25519PublicKey(Buffer.from(id.ed25519()));

function liabilitiesXdr(l: { buying: bigint; selling: bigint }) {
  return new xdr.Liabilities({ buying: int64(l.buying), selling: int64(l.selling) });
}

/** A sponsored entry's LedgerEntryExt names its sponsor (v1); others are v0. */
function entryExt(sponsor: string | null): xdr.LedgerEntryExt {
  if (!sponsor) return new xdr.LedgerEntryExt(0);
  return new xdr.LedgerEntryExt(1, new xdr.LedgerEntryExtensionV1({ sponsoringId: accountId(sponsor), ext: new xdr.LedgerEntryExtensionV1Ext(0) }));
}

async function accountEntry(store: SandboxStore, a: AccountRow): Promise<xdr.LedgerEntryData> {
  const signers = await store.listSigners(a.id);
  // v1 (liabilities) → v2 (sponsorship counts) → v3 (sequence ledger and time), as core writes
  // for an account that has sent a transaction since protocol 19
  const v3 = new xdr.AccountEntryExtensionV3({ ext: new xdr.ExtensionPoint(0), seqLedger: a.seqLedger, seqTime: xdr.Uint64.fromString(String(a.seqTime)) });
  const v2 = new xdr.AccountEntryExtensionV2({
    numSponsored: a.numSponsored, numSponsoring: a.numSponsoring,
    signerSponsoringIDs: signers.map((s) => (s.sponsor ? accountId(s.sponsor) : null)) as xdr.SponsorshipDescriptor[],
    ext: new xdr.AccountEntryExtensionV2Ext(3, v3),
  });
  const v1 = new xdr.AccountEntryExtensionV1({
    liabilities: liabilitiesXdr(await liabilities(store, a.id, 'native')), ext: new xdr.AccountEntryExtensionV1Ext(2, v2),
  });
  return xdr.LedgerEntryData.account(new xdr.AccountEntry({
    accountId: accountId(a.id),
    balance: int64(a.balance),
    seqNum: int64(a.seq),
    numSubEntries: a.subentries,
    inflationDest: a.inflationDest ? accountId(a.inflationDest) : null,
    flags: a.flags,
    homeDomain: a.homeDomain,
    thresholds: Buffer.from([a.masterWeight, a.lowThreshold, a.medThreshold, a.highThreshold]),
    signers: signers.map((s) => new xdr.Signer({ key: xdr.SignerKey.signerKeyTypeEd25519(StrKey.decodeEd25519PublicKey(s.key)), weight: s.weight })),
    ext: new xdr.AccountEntryExt(1, v1),
  }));
}

function trustLineAsset(assetKey: string): xdr.TrustLineAsset {
  const { code, issuer } = parseAssetKey(assetKey);
  const assetCode = Buffer.alloc(code.length <= 4 ? 4 : 12);
  assetCode.write(code, 'ascii');
  return code.length <= 4
    ? xdr.TrustLineAsset.assetTypeCreditAlphanum4(new xdr.AlphaNum4({ assetCode, issuer: accountId(issuer!) }))
    : xdr.TrustLineAsset.assetTypeCreditAlphanum12(new xdr.AlphaNum12({ assetCode, issuer: accountId(issuer!) }));
}

async function trustlineEntry(store: SandboxStore, t: TrustlineRow): Promise<xdr.LedgerEntryData> {
  return xdr.LedgerEntryData.trustline(new xdr.TrustLineEntry({
    accountId: accountId(t.account),
    asset: trustLineAsset(t.asset),
    balance: int64(t.balance),
    limit: int64(t.limit),
    flags: AUTHORIZED,
    ext: new xdr.TrustLineEntryExt(1, new xdr.TrustLineEntryV1({
      liabilities: liabilitiesXdr(await liabilities(store, t.account, t.asset)), ext: new xdr.TrustLineEntryV1Ext(0),
    })),
  }));
}

/** "CODE:ISSUER" of a trustline key's asset; null for a pool share or native (no such trustline). */
function assetKeyOf(asset: xdr.TrustLineAsset): string | null {
  const arm = armOf(asset);
  if (arm !== 'alphaNum4' && arm !== 'alphaNum12') return null;
  const a = (arm === 'alphaNum4' ? asset.alphaNum4() : asset.alphaNum12()) as xdr.AlphaNum4 | xdr.AlphaNum12;
  const code = Buffer.from(a.assetCode()).toString('ascii').replace(/\0+$/, '');
  return `${code}:${addressOf(a.issuer())}`;
}

interface Found {
  data: xdr.LedgerEntryData;
  lastModified: number;
  sponsor: string | null;
}

async function lookUp(store: SandboxStore, key: xdr.LedgerKey): Promise<Found | null> {
  switch (armOf(key)) {
    case 'account': {
      const a = await store.getAccount(addressOf(key.account().accountId()));
      return a ? { data: await accountEntry(store, a), lastModified: a.lastModifiedLedger, sponsor: a.sponsor } : null;
    }
    case 'trustLine': {
      const asset = assetKeyOf(key.trustLine().asset());
      if (!asset) return null;
      const t = await store.getTrustline(addressOf(key.trustLine().accountId()), asset);
      return t ? { data: await trustlineEntry(store, t), lastModified: t.lastModifiedLedger, sponsor: t.sponsor } : null;
    }
    case 'ttl':
      // stellar-rpc's ErrLedgerTTLEntriesCannotBeQueriedDirectly
      throw invalidParams('ledger ttl entries cannot be queried directly');
    default:
      return null;
  }
}

export async function getLedgerEntries(ledger: SandboxLedger, params: Record<string, unknown>) {
  base64Format(params);
  const keys = params.keys;
  if (!Array.isArray(keys) || keys.some((k) => typeof k !== 'string')) {
    throw invalidParams('invalid parameters: keys must be an array of base64 LedgerKey XDR strings');
  }
  if (keys.length > MAX_KEYS) throw invalidParams(`key count (${keys.length}) exceeds maximum supported (${MAX_KEYS})`);
  const parsed = (keys as string[]).map((k, i) => {
    try {
      return xdr.LedgerKey.fromXDR(k, 'base64');
    } catch {
      throw invalidParams(`cannot unmarshal key value ${k} at index ${i}`);
    }
  });
  // read in one SQLite transaction: the entries and latestLedger of one moment
  return ledger.store.sql.transaction(async () => {
    const entries = [];
    for (const key of parsed) {
      const found = await lookUp(ledger.store, key);
      if (!found) continue;
      entries.push({
        key: Buffer.from(key.toXDR()).toString('base64'),
        xdr: Buffer.from(found.data.toXDR()).toString('base64'),
        extXdr: Buffer.from(entryExt(found.sponsor).toXDR()).toString('base64'),
        lastModifiedLedgerSeq: found.lastModified,
      });
    }
    return { entries, latestLedger: await ledger.ledgerSequence() };
  });
}
