/**
 * getLedgerEntries for the entries the sandbox's store holds as Stellar does: accounts and
 * trustlines, written as LedgerEntryData XDR from the store's rows, and the built-in Stellar Asset
 * Contracts' instances (sac/). Keys of other kinds the sandbox has none of (other contract data,
 * contract code, claimable balances, liquidity pools…) are not found, as on a network without
 * them; offers and data entries are not served yet.
 */
import { Keypair, StrKey, xdr } from '@stellar/stellar-sdk';
import { parseAssetKey } from '../shared/assets.js';
import { liabilities } from '../accounts.js';
import type { SandboxLedger } from '../ledger.js';
import type { AccountRow, SandboxStore, TrustlineRow } from '../store.js';
import { base64Format, invalidParams } from './errors.js';
import { builtinSacs, instanceEntry } from '../sac/contracts.js';
import { instanceKey } from '../sac/keys.js';

/** stellar-rpc's getLedgerEntriesMaxKeys. */
export const MAX_KEYS = 200;
/** TrustLineFlags.AUTHORIZED_FLAG: the sandbox's issuers authorize every trustline. */
const AUTHORIZED = 1;

const accountId = (address: string) => Keypair.fromPublicKey(address).xdrAccountId();
const int64 = (n: bigint) => xdr.Int64.fromString(n.toString());
function liabilitiesXdr(l: { buying: bigint; selling: bigint }) {
  return new xdr.Liabilities({ buying: int64(l.buying), selling: int64(l.selling) });
}

/** A sponsored entry's LedgerEntryExt names its sponsor (v1); others are v0. */
function entryExt(sponsor: string | null): xdr.LedgerEntryExt {
  if (!sponsor) return xdr.LedgerEntryExt.v0();
  return xdr.LedgerEntryExt.v1(new xdr.LedgerEntryExtensionV1({ sponsoringId: accountId(sponsor), ext: xdr.LedgerEntryExtensionV1Ext.v0() }));
}

async function accountEntry(store: SandboxStore, a: AccountRow): Promise<xdr.LedgerEntryData> {
  const signers = await store.listSigners(a.id);
  // v1 (liabilities) → v2 (sponsorship counts) → v3 (sequence ledger and time), as core writes
  // for an account that has sent a transaction since protocol 19
  const v3 = new xdr.AccountEntryExtensionV3({ ext: xdr.ExtensionPoint.v0(), seqLedger: a.seqLedger, seqTime: xdr.Uint64.fromString(String(a.seqTime)) });
  const v2 = new xdr.AccountEntryExtensionV2({
    numSponsored: a.numSponsored, numSponsoring: a.numSponsoring,
    signerSponsoringIDs: signers.map((s) => (s.sponsor ? accountId(s.sponsor) : null)),
    ext: xdr.AccountEntryExtensionV2Ext.v3(v3),
  });
  const v1 = new xdr.AccountEntryExtensionV1({
    liabilities: liabilitiesXdr(await liabilities(store, a.id, 'native')), ext: xdr.AccountEntryExtensionV1Ext.v2(v2),
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
    ext: xdr.AccountEntryExt.v1(v1),
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
    ext: xdr.TrustLineEntryExt.v1(new xdr.TrustLineEntryV1({
      liabilities: liabilitiesXdr(await liabilities(store, t.account, t.asset)), ext: xdr.TrustLineEntryV1Ext.v0(),
    })),
  }));
}

/**
 * What a LedgerKey names, read from its XDR bytes (decoded once by the SDK to validate it): the
 * layout is fixed by the protocol, the SDK's union accessors are not across its versions.
 *   account:   type 0 | PublicKey (type 0, 32 bytes)
 *   trustline: type 1 | PublicKey | TrustLineAsset (type 1: 4-byte code, 2: 12-byte code; then the issuer)
 */
type KeyRef = { kind: 'account'; account: string } | { kind: 'trustline'; account: string; asset: string | null } | { kind: 'ttl' } | { kind: 'other' };

const LEDGER_KEY_ACCOUNT = 0;
const LEDGER_KEY_TRUSTLINE = 1;
const LEDGER_KEY_TTL = 9;
const LEDGER_KEY_CONTRACT_DATA = 6;

function publicKeyAt(b: Buffer, at: number): string {
  return StrKey.encodeEd25519PublicKey(b.subarray(at + 4, at + 36));
}

function keyRef(raw: Buffer): KeyRef {
  const type = raw.readInt32BE(0);
  if (type === LEDGER_KEY_ACCOUNT) return { kind: 'account', account: publicKeyAt(raw, 4) };
  if (type === LEDGER_KEY_TTL) return { kind: 'ttl' };
  if (type !== LEDGER_KEY_TRUSTLINE) return { kind: 'other' };
  const account = publicKeyAt(raw, 4);
  const assetType = raw.readInt32BE(40);
  // native (0) and pool shares (3) have no CODE:ISSUER trustline here
  if (assetType !== 1 && assetType !== 2) return { kind: 'trustline', account, asset: null };
  const codeLength = assetType === 1 ? 4 : 12;
  const code = raw.subarray(44, 44 + codeLength).toString('ascii').replace(/\0+$/, '');
  return { kind: 'trustline', account, asset: `${code}:${publicKeyAt(raw, 44 + codeLength)}` };
}

interface Found {
  data: xdr.LedgerEntryData;
  lastModified: number;
  sponsor: string | null;
  /** Soroban entries' TTL (getLedgerEntries' liveUntilLedgerSeq). */
  liveUntil?: number;
}

/** A built-in SAC's instance, if the key names one (deployed from genesis, it never expires). */
function sacInstance(raw: Buffer, passphrase: string): Found | null {
  const key = raw.toString('base64');
  const sac = [...builtinSacs(passphrase).values()].find((s) => instanceKey(s.contractId).toXdr('base64') === key);
  return sac ? { data: instanceEntry(sac), lastModified: 1, sponsor: null, liveUntil: 0xffffffff } : null;
}

/**
 * The entry a LedgerKey (its XDR bytes) names, if the sandbox holds it: accounts, trustlines and,
 * given the network's passphrase, the built-in SACs' instances.
 */
export async function lookUp(store: SandboxStore, raw: Buffer, passphrase?: string): Promise<Found | null> {
  const ref = keyRef(raw);
  if (raw.readInt32BE(0) === LEDGER_KEY_CONTRACT_DATA) return passphrase ? sacInstance(raw, passphrase) : null;
  switch (ref.kind) {
    case 'account': {
      const a = await store.getAccount(ref.account);
      return a ? { data: await accountEntry(store, a), lastModified: a.lastModifiedLedger, sponsor: a.sponsor } : null;
    }
    case 'trustline': {
      const t = ref.asset ? await store.getTrustline(ref.account, ref.asset) : undefined;
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
      return Buffer.from(xdr.LedgerKey.fromXDR(k, 'base64').toXDR());
    } catch {
      throw invalidParams(`cannot unmarshal key value ${k} at index ${i}`);
    }
  });
  // read in one SQLite transaction: the entries and latestLedger of one moment
  return ledger.store.sql.transaction(async () => {
    const entries = [];
    for (const key of parsed) {
      const found = await lookUp(ledger.store, key, ledger.passphrase);
      if (!found) continue;
      entries.push({
        key: key.toString('base64'),
        xdr: Buffer.from(found.data.toXDR()).toString('base64'),
        extXdr: Buffer.from(entryExt(found.sponsor).toXDR()).toString('base64'),
        lastModifiedLedgerSeq: found.lastModified,
        ...(found.liveUntil === undefined ? {} : { liveUntilLedgerSeq: found.liveUntil }),
      });
    }
    return { entries, latestLedger: await ledger.ledgerSequence() };
  });
}
