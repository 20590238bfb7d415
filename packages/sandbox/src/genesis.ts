/**
 * Genesis: issuer accounts (testnet issuer addresses, never signed for), a market maker with
 * real offers from a rate table, a treasury and the friendbot's account. Idempotent: keys live
 * in sbx_keys.
 */
import { assetKey } from './shared/assets.js';
import { toStroops } from './shared/money.js';
import { ensureAccount, ensureTrustline, fundAccount } from './faucet.js';
import type { SandboxLedger } from './ledger.js';
import { SANDBOX_ASSETS } from './sandbox-assets.js';
import { NativeKeypair } from './shared/keypair.js';

/** "BASE/QUOTE": how many QUOTE one BASE buys. 1 XLM = 0.1 USDC; 1 EURC = 1.08 USDC. */
export const DEFAULT_RATES: Record<string, string> = { 'XLM/USDC': '0.1', 'EURC/USDC': '1.08' };

export interface BootstrapOptions {
  rates?: Record<string, string>;
  /** Units of BASE offered on each side of every pair (default 1,000,000). */
  depth?: string;
  marketMakerSecret?: string;
  treasurySecret?: string;
  /** XLM given to the treasury at genesis (default 1,000,000). */
  treasuryXlm?: string;
}

export interface KeyPairInfo {
  publicKey: string;
  secret: string;
}

export interface SandboxKeys {
  marketMaker: KeyPairInfo;
  treasury: KeyPairInfo;
  /** signs the friendbot's createAccount and payment transactions (friendbot.ts) */
  friendbot: KeyPairInfo;
  issuers: { USDC: string; EURC: string };
}

/**
 * What the friendbot account holds: at 10,000 XLM a call, a hundred thousand accounts. Refilled
 * to this at every start once it falls below half (see ensureFriendbot).
 */
const FRIENDBOT_FLOAT = toStroops('1000000000');

async function storedOrNew(ledger: SandboxLedger, role: string, secret?: string): Promise<KeyPairInfo> {
  const stored = await ledger.store.getKey(role);
  if (stored?.secret) return { publicKey: stored.publicKey, secret: stored.secret };
  const kp = secret ? NativeKeypair.fromSecret(secret) : NativeKeypair.random();
  await ledger.store.putKey(role, kp.publicKey(), kp.secret());
  return { publicKey: kp.publicKey(), secret: kp.secret() };
}

/** A decimal rate as an exact fraction n/d. */
function fraction(rate: string): [bigint, bigint] {
  const [whole = '0', frac = ''] = rate.split('.');
  const d = 10n ** BigInt(frac.length);
  return [BigInt(whole + frac), d];
}

async function seedPair(ledger: SandboxLedger, mm: string, pair: string, rate: string, depth: bigint): Promise<void> {
  const [baseCode, quoteCode] = pair.split('/') as [keyof typeof SANDBOX_ASSETS, keyof typeof SANDBOX_ASSETS];
  const base = assetKey(SANDBOX_ASSETS[baseCode]);
  const quote = assetKey(SANDBOX_ASSETS[quoteCode]);
  const [n, d] = fraction(rate);
  const quoteDepth = (depth * n) / d;
  // Mint twice what the offers sell so their selling liabilities stay funded.
  await fundAccount(ledger.store, await ledger.closeLedger(), mm, base, depth * 2n);
  await fundAccount(ledger.store, await ledger.closeLedger(), mm, quote, quoteDepth * 2n);
  const clock = await ledger.closeLedger();
  await ledger.store.insertOffer({ seller: mm, selling: base, buying: quote, amount: depth, priceN: n, priceD: d }, clock.ledger);
  await ledger.store.insertOffer({ seller: mm, selling: quote, buying: base, amount: quoteDepth, priceN: d, priceD: n }, clock.ledger);
  const acc = (await ledger.store.getAccount(mm))!;
  // Offers are subentries: two more base reserves, paid from faucet XLM.
  await ledger.store.putAccount({ ...acc, subentries: acc.subentries + 2, balance: acc.balance + 10_000_000n });
}

/**
 * The friendbot's own account, with XLM, USDC and EURC it pays out in real transactions. Apart
 * from the rest of genesis so databases bootstrapped before the friendbot existed get it too.
 */
export async function ensureFriendbot(ledger: SandboxLedger): Promise<KeyPairInfo> {
  return ledger.store.sql.transaction(async () => topUpFriendbot(ledger, await storedOrNew(ledger, 'friendbot')));
}

async function topUpFriendbot(ledger: SandboxLedger, friendbot: KeyPairInfo): Promise<KeyPairInfo> {
  const balanceOf = async (asset: string) => asset === 'native'
    ? (await ledger.store.getAccount(friendbot.publicKey))?.balance ?? 0n
    : (await ledger.store.getTrustline(friendbot.publicKey, asset))?.balance ?? 0n;
  const low: string[] = [];
  for (const asset of ['native', assetKey(SANDBOX_ASSETS.USDC), assetKey(SANDBOX_ASSETS.EURC)]) {
    if (await balanceOf(asset) < FRIENDBOT_FLOAT / 2n) low.push(asset);
  }
  if (low.length === 0) return friendbot;
  // One ledger for the whole top-up, so later ledger numbers move as little as possible.
  const clock = await ledger.closeLedger();
  for (const asset of low) await fundAccount(ledger.store, clock, friendbot.publicKey, asset, FRIENDBOT_FLOAT - await balanceOf(asset));
  return friendbot;
}

export async function bootstrapSandbox(ledger: SandboxLedger, options: BootstrapOptions = {}): Promise<SandboxKeys> {
  return ledger.store.sql.transaction(async () => {
    const issuers = { USDC: SANDBOX_ASSETS.USDC.issuer!, EURC: SANDBOX_ASSETS.EURC.issuer! };
    const already = await ledger.store.getKey('market_maker');
    const marketMaker = await storedOrNew(ledger, 'market_maker', options.marketMakerSecret);
    const treasury = await storedOrNew(ledger, 'treasury', options.treasurySecret);
    if (already) return { marketMaker, treasury, friendbot: await ensureFriendbot(ledger), issuers };
    const clock = await ledger.closeLedger();
    for (const issuer of Object.values(issuers)) await ensureAccount(ledger.store, clock, issuer, 100_000_000n);
    const depth = toStroops(options.depth ?? '1000000');
    for (const [pair, rate] of Object.entries(options.rates ?? DEFAULT_RATES)) {
      await seedPair(ledger, marketMaker.publicKey, pair, rate, depth);
    }
    const xlm = toStroops(options.treasuryXlm ?? '1000000');
    await fundAccount(ledger.store, await ledger.closeLedger(), treasury.publicKey, 'native', xlm);
    for (const code of ['USDC', 'EURC'] as const) {
      await ensureTrustline(ledger.store, await ledger.closeLedger(), treasury.publicKey, assetKey(SANDBOX_ASSETS[code]));
    }
    return { marketMaker, treasury, friendbot: await ensureFriendbot(ledger), issuers };
  });
}
