/**
 * `require_auth` for G… addresses, as the Soroban host does it: recorded in simulation (an entry
 * per address, with the transaction's source account's own credentials for it, address
 * credentials with a fresh nonce for anyone else), enforced at apply: an entry whose root
 * invocation is this call, with the source account's credentials (only for that account) or
 * address credentials whose ed25519 signatures (over HashIdPreimage sorobanAuthorization) carry
 * the account's medium threshold, before their expiration ledger, with a nonce never used.
 */
import { randomBytes } from 'node:crypto';
import { buildAuthorizationEntryPreimage, hash, Keypair, StrKey, xdr } from '@stellar/stellar-sdk';
import type { SandboxStore } from '../store.js';
import type { SacCall } from './call.js';
import { addressString } from './contracts.js';
import { SacError } from './errors.js';
import { accountKey, nonceKey, type Footprint } from './keys.js';

type Authorize = (address: string, footprint: Footprint) => Promise<void>;

/** The host's bound on a signature's life: maxEntryTTL (a year of ledgers, testnet's setting). */
export const MAX_SIGNATURE_LEDGERS = 3_110_400;

function rootInvocation(call: SacCall): xdr.SorobanAuthorizedInvocation {
  return new xdr.SorobanAuthorizedInvocation({
    function: xdr.SorobanAuthorizedFunction.sorobanAuthorizedFunctionTypeContractFn(call.invocation), subInvocations: [],
  });
}

/** Recording mode: what `results[].auth` lists; the footprint gets each nonce and signer's account. */
export function recordingAuth(call: SacCall, source: string, recorded: xdr.SorobanAuthorizationEntry[]): Authorize {
  return async (address, footprint) => {
    if (address === source) {
      recorded.push(new xdr.SorobanAuthorizationEntry({
        credentials: xdr.SorobanCredentials.sorobanCredentialsSourceAccount(), rootInvocation: rootInvocation(call),
      }));
      return;
    }
    const nonce = randomBytes(8).readBigInt64BE();
    recorded.push(new xdr.SorobanAuthorizationEntry({
      credentials: xdr.SorobanCredentials.sorobanCredentialsAddress(new xdr.SorobanAddressCredentials({
        address: xdr.ScAddress.scAddressTypeAccount(Keypair.fromPublicKey(address).xdrAccountId()),
        nonce, signatureExpirationLedger: 0, signature: xdr.ScVal.scvVoid(),
      })),
      rootInvocation: rootInvocation(call),
    }));
    footprint.read(accountKey(address));
    footprint.write(nonceKey(address, nonce));
  };
}

export interface EnforceContext {
  store: SandboxStore;
  ledger: number;
  passphrase: string;
  /** The operation's source account: what source-account credentials authorize. */
  source: string;
  /**
   * Simulation of a transaction that carries its entries already: an entry not signed yet
   * (signature void) stands for its signature, as the wallet signs after simulating.
   */
  unsignedAllowed?: boolean;
}

const nonceState = (address: string, nonce: bigint) => `sac-nonce:${address}:${nonce}`;

const authFailure = (message: string) => new SacError('Auth', 'InvalidAction', message);

/** The signers of an account credential's signature: a vector of {public_key, signature} maps. */
function signatures(signature: xdr.ScVal): Array<{ publicKey: Uint8Array; signature: Uint8Array }> {
  if (signature.type !== 'scvVec' || !signature.vec) throw authFailure('an account signature must be a vector of {public_key, signature}');
  return signature.vec.map((s) => {
    const fields = new Map((s.type === 'scvMap' ? s.map ?? [] : []).map((e) => [e.key.type === 'scvSymbol' ? e.key.sym.toString() : '', e.val]));
    const pk = fields.get('public_key');
    const sig = fields.get('signature');
    if (pk?.type !== 'scvBytes' || sig?.type !== 'scvBytes') throw authFailure('an account signature must be a vector of {public_key, signature}');
    return { publicKey: pk.bytes.toXdrObject(), signature: sig.bytes.toXdrObject() };
  });
}

/** The signatures carry the account's medium threshold (signers sorted, each once, each valid). */
async function checkSignatures(store: SandboxStore, account: string, payload: Uint8Array, sigs: ReturnType<typeof signatures>): Promise<void> {
  const a = await store.getAccount(account);
  if (!a) throw new SacError('Storage', 'MissingValue', `account ${account} is missing`);
  const weights = new Map((await store.listSigners(account)).map((s) => [s.key, s.weight]));
  if (a.masterWeight > 0) weights.set(account, a.masterWeight);
  let weight = 0;
  let previous = '';
  for (const s of sigs) {
    const key = StrKey.encodeEd25519PublicKey(Buffer.from(s.publicKey));
    const hex = Buffer.from(s.publicKey).toString('hex');
    if (hex <= previous) throw authFailure('signatures must be sorted by public key, each once');
    previous = hex;
    if (!Keypair.fromPublicKey(key).verify(Buffer.from(payload), Buffer.from(s.signature))) throw authFailure('failed ed25519 verification');
    const w = weights.get(key);
    if (!w) throw authFailure(`${key} is not a signer of ${account}`);
    weight += w;
  }
  if (weight < Math.max(a.medThreshold, 1)) throw authFailure(`signature weight ${weight} is below the threshold of ${account}`);
}

/** Enforcing mode: the transaction's entries must authorize `address` for this very call. */
export function enforcingAuth(call: SacCall, ctx: EnforceContext): Authorize {
  const root = rootInvocation(call).toXdr('base64');
  return async (address, footprint) => {
    const entries = call.auth.filter((e) => e.rootInvocation.toXdr('base64') === root);
    if (entries.some((e) => e.credentials.type === 'sorobanCredentialsSourceAccount') && address === ctx.source) return;
    const entry = entries.find((e) => (e.credentials.type === 'sorobanCredentialsAddress' || e.credentials.type === 'sorobanCredentialsAddressV2')
      && addressString(e.credentials.value.address) === address);
    if (!entry || (entry.credentials.type !== 'sorobanCredentialsAddress' && entry.credentials.type !== 'sorobanCredentialsAddressV2')) {
      throw authFailure(`Unauthorized function call for address ${address}`);
    }
    const creds = entry.credentials.value;
    footprint.read(accountKey(address));
    footprint.write(nonceKey(address, creds.nonce));
    if (ctx.ledger > creds.signatureExpirationLedger) {
      throw authFailure(`signature has expired: its expiration ledger ${creds.signatureExpirationLedger} is before ledger ${ctx.ledger}`);
    }
    if (creds.signatureExpirationLedger >= ctx.ledger + MAX_SIGNATURE_LEDGERS) throw authFailure('signature expiration is too late');
    if (await ctx.store.getState(nonceState(address, creds.nonce)) !== undefined) {
      throw new SacError('Auth', 'ExistingValue', `nonce ${creds.nonce} of ${address} was already used`);
    }
    if (ctx.unsignedAllowed && creds.signature.type === 'scvVoid') return;
    const payload = hash(Buffer.from(buildAuthorizationEntryPreimage(entry, creds.signatureExpirationLedger, ctx.passphrase).toXdr()));
    await checkSignatures(ctx.store, address, payload, signatures(creds.signature));
    await ctx.store.setState(nonceState(address, creds.nonce), String(creds.signatureExpirationLedger));
  };
}
