/**
 * setOptions signers and thresholds, and signatures weighed as stellar-core weighs them, through
 * stellar-sdk against the sandbox Horizon: the treasury co-signs deposit accounts so that one
 * channel transaction settling many of them needs only the channel's and the treasury's
 * signatures (Stellar allows 20 signatures per transaction).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  Account, Asset, AuthRequiredFlag, AuthRevocableFlag, Keypair, Operation, TransactionBuilder, xdr, type AuthFlag, type Horizon,
} from '@stellar/stellar-sdk';
import Database from 'better-sqlite3';
import { SandboxLedger } from '../../src/index.js';
import {
  balanceOf, buildTx, fundedAccount, PASSPHRASE, startSandbox, submitExpectingFailure, type Sandbox,
} from './helpers.js';

let sb: Sandbox;
beforeEach(async () => { sb = await startSandbox(); });
afterEach(async () => { await sb.close(); });

type Options = Parameters<typeof Operation.setOptions>[0];

async function setOptions(account: Keypair, options: Options, signers: Keypair[] = [account]) {
  return sb.horizon.submitTransaction(await buildTx(sb, account, [Operation.setOptions(options)], { signers }));
}

/** Makes the treasury a weight-1 co-signer of `account` (thresholds 0/1/1, as the platform sets them). */
async function coSign(account: Keypair) {
  await setOptions(account, {
    signer: { ed25519PublicKey: sb.treasury.publicKey(), weight: 1 }, lowThreshold: 0, medThreshold: 1, highThreshold: 1,
  });
}

const pay = (from: Keypair, to: Keypair, amount = '1') =>
  Operation.payment({ source: from.publicKey(), destination: to.publicKey(), asset: Asset.native(), amount });

async function account(kp: Keypair): Promise<Horizon.AccountResponse> {
  return sb.horizon.loadAccount(kp.publicKey());
}

describe('sandbox signers and thresholds', () => {
  it('lets a co-signer sign for an account alone, and a channel settle co-signed accounts with two signatures', async () => {
    const [channel, d1, d2] = [await fundedAccount(sb, '20'), await fundedAccount(sb, '20'), await fundedAccount(sb, '20')];
    await coSign(d1);
    await coSign(d2);
    const alone = await buildTx(sb, d1, [pay(d1, channel)], { signers: [sb.treasury] });
    expect((await sb.horizon.submitTransaction(alone)).successful).toBe(true);
    const ops = [pay(d1, sb.treasury), pay(d2, sb.treasury), pay(sb.treasury, channel, '2')];
    const batch = await buildTx(sb, channel, ops, { signers: [channel, sb.treasury] });
    expect((await sb.horizon.submitTransaction(batch)).successful).toBe(true);
    expect(balanceOf(await account(d2), Asset.native())).toBe('18.9999900');
    // The treasury's signature comes first and already meets d1's threshold: d1's own is unused.
    const extra = await buildTx(sb, channel, ops, { signers: [channel, sb.treasury, d1] });
    const refused = await submitExpectingFailure(sb, extra);
    expect(refused.data.extras.result_codes).toEqual({ transaction: 'tx_bad_auth_extra' });
  });

  it('refuses signatures below a threshold: the source\'s LOW as tx_bad_auth, an operation\'s as op_bad_auth', async () => {
    const [channel, deposit] = [await fundedAccount(sb, '20'), await fundedAccount(sb, '20')];
    await setOptions(deposit, { lowThreshold: 2 });
    const low = await buildTx(sb, deposit, [pay(deposit, channel)]);
    expect((await submitExpectingFailure(sb, low)).data.extras.result_codes).toEqual({ transaction: 'tx_bad_auth' });
    await setOptions(channel, { medThreshold: 2, signer: { ed25519PublicKey: sb.treasury.publicKey(), weight: 1 } });
    const before = await account(channel);
    // Source channel (LOW 0 met by its key), but its payment needs MEDIUM 2: only 1 without the treasury.
    const medium = await buildTx(sb, channel, [pay(channel, deposit)], { signers: [channel] });
    const twice = await buildTx(sb, channel, [pay(channel, deposit)], { signers: [channel, channel] });
    // A key counts once however often it signs (and its second signature is then unused).
    expect((await submitExpectingFailure(sb, twice)).data.extras.result_codes.operations).toEqual(['op_bad_auth']);
    const failed = await submitExpectingFailure(sb, medium);
    expect(failed.data.extras.result_codes).toEqual({ transaction: 'tx_failed', operations: ['op_bad_auth'] });
    const result = xdr.TransactionResult.fromXDR(failed.data.extras.result_xdr, 'base64');
    expect(xdr.expectUnionVariant(result.result, 'txFailed').results[0]!.type).toBe('opBadAuth');
    // Refused at admission, as stellar-core does: no fee, no sequence number.
    expect((await account(channel)).sequence).toBe(before.sequence);
    const both = await buildTx(sb, channel, [pay(channel, deposit)], { signers: [channel, sb.treasury] });
    expect((await sb.horizon.submitTransaction(both)).successful).toBe(true);
  });

  it('answers every operation\'s result when one operation of several is not authorised', async () => {
    const [channel, deposit] = [await fundedAccount(sb, '20'), await fundedAccount(sb, '20')];
    const tx = await buildTx(sb, channel, [pay(channel, deposit), pay(deposit, channel)], { signers: [channel] });
    const failed = await submitExpectingFailure(sb, tx);
    expect(failed.data.extras.result_codes).toEqual({ transaction: 'tx_failed', operations: ['op_success', 'op_bad_auth'] });
    // An operation's source created earlier in the transaction must still sign with its own key.
    const fresh = Keypair.random();
    const sponsored = await buildTx(sb, sb.treasury, [
      Operation.beginSponsoringFutureReserves({ sponsoredId: fresh.publicKey() }),
      Operation.createAccount({ destination: fresh.publicKey(), startingBalance: '0' }),
      Operation.endSponsoringFutureReserves({ source: fresh.publicKey() }),
    ]);
    expect((await submitExpectingFailure(sb, sponsored)).data.extras.result_codes.operations)
      .toEqual(['op_success', 'op_success', 'op_bad_auth']);
  });

  it('removes a signer with weight 0: it no longer signs, and its reserve comes back', async () => {
    const deposit = await fundedAccount(sb, '20');
    await coSign(deposit);
    expect((await account(deposit)).subentry_count).toBe(1);
    await setOptions(deposit, { signer: { ed25519PublicKey: sb.treasury.publicKey(), weight: 0 } });
    const acc = await account(deposit);
    expect(acc.subentry_count).toBe(0);
    expect(acc.signers).toEqual([{ weight: 1, key: deposit.publicKey(), type: 'ed25519_public_key' }]);
    const tx = await buildTx(sb, deposit, [pay(deposit, sb.treasury)], { signers: [sb.treasury] });
    expect((await submitExpectingFailure(sb, tx)).data.extras.result_codes).toEqual({ transaction: 'tx_bad_auth' });
  });

  it('locks an account whose master weight is 0 and that has no other signer', async () => {
    const locked = await fundedAccount(sb, '20');
    const cosigned = await fundedAccount(sb, '20');
    await setOptions(locked, { masterWeight: 0 });
    const tx = await buildTx(sb, locked, [pay(locked, sb.treasury)]);
    expect((await submitExpectingFailure(sb, tx)).data.extras.result_codes).toEqual({ transaction: 'tx_bad_auth' });
    expect((await account(locked)).signers).toEqual([{ weight: 0, key: locked.publicKey(), type: 'ed25519_public_key' }]);
    // Horizon lists an account under its own key only while the master key can sign.
    expect((await sb.horizon.accounts().forSigner(locked.publicKey()).call()).records).toEqual([]);
    await coSign(cosigned);
    await setOptions(cosigned, { masterWeight: 0 }, [sb.treasury]);
    // The master key counts for nothing now, so its signature is one too many.
    const withMaster = await buildTx(sb, cosigned, [pay(cosigned, sb.treasury)], { signers: [sb.treasury, cosigned] });
    expect((await submitExpectingFailure(sb, withMaster)).data.extras.result_codes).toEqual({ transaction: 'tx_bad_auth_extra' });
    const byTreasury = await buildTx(sb, cosigned, [pay(cosigned, sb.treasury)], { signers: [sb.treasury] });
    expect((await sb.horizon.submitTransaction(byTreasury)).successful).toBe(true);
  });

  it('needs HIGH to change signers or thresholds, MEDIUM for the home domain', async () => {
    const acc = await fundedAccount(sb, '20');
    await setOptions(acc, { highThreshold: 2, signer: { ed25519PublicKey: sb.treasury.publicKey(), weight: 1 } });
    const other = Keypair.random().publicKey();
    const high = await buildTx(sb, acc, [Operation.setOptions({ signer: { ed25519PublicKey: other, weight: 1 } })]);
    expect((await submitExpectingFailure(sb, high)).data.extras.result_codes.operations).toEqual(['op_bad_auth']);
    const merge = await buildTx(sb, acc, [Operation.accountMerge({ destination: sb.treasury.publicKey() })]);
    expect((await submitExpectingFailure(sb, merge)).data.extras.result_codes.operations).toEqual(['op_bad_auth']);
    const domain = await setOptions(acc, { homeDomain: 'shop.example' });
    expect(domain.successful).toBe(true);
    await setOptions(acc, { signer: { ed25519PublicKey: other, weight: 1 } }, [acc, sb.treasury]);
    expect((await account(acc)).signers.map((s) => s.key)).toContain(other);
  });

  it('refuses a 21st signer, the account\'s own key, weights above 255 and an unpaid reserve', async () => {
    const acc = await fundedAccount(sb, '30');
    const keys = Array.from({ length: 20 }, () => Keypair.random().publicKey());
    const add = (key: string) => Operation.setOptions({ signer: { ed25519PublicKey: key, weight: 1 } });
    await sb.horizon.submitTransaction(await buildTx(sb, acc, keys.map(add)));
    expect((await account(acc)).subentry_count).toBe(20);
    const codes = async (op: xdr.Operation, kp = acc) =>
      (await submitExpectingFailure(sb, await buildTx(sb, kp, [op]))).data.extras.result_codes.operations;
    expect(await codes(add(Keypair.random().publicKey()))).toEqual(['op_too_many_signers']);
    expect(await codes(add(acc.publicKey()))).toEqual(['op_bad_signer']);
    // stellar-sdk refuses to build weights above 255; the XDR itself can carry them.
    // (SDK 17's XDR values are immutable: the operation is rebuilt rather than edited in place.)
    const raw = new xdr.Operation({ sourceAccount: null, body: xdr.OperationBody.setOptions(new xdr.SetOptionsOp({
      inflationDest: null, clearFlags: null, setFlags: null, masterWeight: 256, lowThreshold: null, medThreshold: null,
      highThreshold: null, homeDomain: null, signer: null,
    })) });
    expect(await codes(raw)).toEqual(['op_threshold_out_of_range']);
    const poor = await fundedAccount(sb, '1.5');
    expect(await codes(add(Keypair.random().publicKey()), poor)).toEqual(['op_low_reserve']);
  });

  it('lets a sponsor pay a signer\'s reserve, listed by sponsor, given back when the account merges', async () => {
    const deposit = await fundedAccount(sb, '5');
    const treasuryBefore = await account(sb.treasury);
    await sb.horizon.submitTransaction(await buildTx(sb, sb.treasury, [
      Operation.beginSponsoringFutureReserves({ sponsoredId: deposit.publicKey() }),
      Operation.setOptions({ source: deposit.publicKey(), signer: { ed25519PublicKey: sb.treasury.publicKey(), weight: 1 } }),
      Operation.endSponsoringFutureReserves({ source: deposit.publicKey() }),
    ], { signers: [sb.treasury, deposit] }));
    const acc = await account(deposit);
    expect(acc).toMatchObject({ subentry_count: 1, num_sponsored: 1 });
    expect(acc.signers[1]).toEqual({ weight: 1, key: sb.treasury.publicKey(), type: 'ed25519_public_key', sponsor: sb.treasury.publicKey() });
    expect((await account(sb.treasury)).num_sponsoring).toBe(treasuryBefore.num_sponsoring + 1);
    const bySponsor = await sb.horizon.accounts().sponsor(sb.treasury.publicKey()).call();
    expect(bySponsor.records.map((a) => a.id)).toContain(deposit.publicKey());
    const effects = await sb.horizon.effects().forAccount(deposit.publicKey()).order('desc').limit(2).call();
    expect(effects.records.map((e) => e.type).reverse()).toEqual(['signer_created', 'signer_sponsorship_created']);
    // A signer does not stop a merge: it goes with the account, and the sponsor gets its reserve back.
    const merge = await buildTx(sb, deposit, [Operation.accountMerge({ destination: sb.treasury.publicKey() })], { signers: [sb.treasury] });
    expect((await sb.horizon.submitTransaction(merge)).successful).toBe(true);
    expect((await account(sb.treasury)).num_sponsoring).toBe(treasuryBefore.num_sponsoring);
    expect((await sb.horizon.accounts().forSigner(sb.treasury.publicKey()).call()).records.map((a) => a.id))
      .not.toContain(deposit.publicKey());
  });

  it('shows signers and thresholds on the account, and lists co-signed accounts by signer', async () => {
    const [d1, d2] = [await fundedAccount(sb, '20'), await fundedAccount(sb, '20')];
    await coSign(d1);
    await coSign(d2);
    const acc = await account(d1);
    expect(acc.thresholds).toEqual({ low_threshold: 0, med_threshold: 1, high_threshold: 1 });
    expect(acc.signers).toEqual([
      { weight: 1, key: d1.publicKey(), type: 'ed25519_public_key' },
      { weight: 1, key: sb.treasury.publicKey(), type: 'ed25519_public_key' },
    ]);
    expect(acc.subentry_count).toBe(1);
    const bySigner = await sb.horizon.accounts().forSigner(sb.treasury.publicKey()).limit(200).call();
    const ids = bySigner.records.map((a) => a.id);
    expect(ids).toEqual(expect.arrayContaining([d1.publicKey(), d2.publicKey(), sb.treasury.publicKey()]));
    expect((await sb.horizon.accounts().forSigner(d1.publicKey()).call()).records.map((a) => a.id)).toEqual([d1.publicKey()]);
  });

  it('records set_options with the options it sets, and its effects, in Horizon\'s shapes', async () => {
    const acc = await fundedAccount(sb, '20');
    const res = await setOptions(acc, {
      masterWeight: 2, lowThreshold: 1, medThreshold: 2, highThreshold: 3, homeDomain: 'shop.example',
      setFlags: (AuthRequiredFlag | AuthRevocableFlag) as AuthFlag, signer: { ed25519PublicKey: sb.treasury.publicKey(), weight: 2 },
    });
    const ops = await sb.horizon.operations().forTransaction(res.hash).call();
    const op = ops.records[0] as unknown as Record<string, unknown>;
    expect(op).toMatchObject({
      type: 'set_options', type_i: 5, home_domain: 'shop.example', master_key_weight: 2,
      signer_key: sb.treasury.publicKey(), signer_weight: 2, set_flags: [1, 2], set_flags_s: ['auth_required', 'auth_revocable'],
      low_threshold: 1, med_threshold: 2, high_threshold: 3,
    });
    expect(op).not.toHaveProperty('clear_flags');
    const effects = (await sb.horizon.effects().forOperation(String(op.id)).call()).records;
    expect(effects.map((e) => [e.type, e.type_i])).toEqual([
      ['account_home_domain_updated', 5], ['account_thresholds_updated', 4], ['account_flags_updated', 6],
      // the master key's weight changed (1 → 2) and a signer was added
      ['signer_updated', 12], ['signer_created', 10],
    ]);
    expect(effects[1]).toMatchObject({ low_threshold: 1, med_threshold: 2, high_threshold: 3 });
    expect(effects[3]).toMatchObject({ public_key: acc.publicKey(), weight: 2, key: '' });
    expect(effects[4]).toMatchObject({ public_key: sb.treasury.publicKey(), weight: 2, key: '' });
    const shown = await account(acc);
    expect(shown).toMatchObject({
      home_domain: 'shop.example', flags: { auth_required: true, auth_revocable: true },
      thresholds: { low_threshold: 1, med_threshold: 2, high_threshold: 3 },
    });
    expect(shown.signers.map((x) => x.weight)).toEqual([2, 2]);
    const removed = await setOptions(acc, { masterWeight: 0 }, [acc, sb.treasury]);
    const last = (await sb.horizon.effects().forTransaction(removed.hash).call()).records;
    expect(last.map((e) => e.type)).toEqual(['signer_removed']);
    expect(last[0]).toMatchObject({ public_key: acc.publicKey(), weight: 0 });
  });

  it('takes a fee-bump\'s outer signature from a co-signer of the fee source', async () => {
    const [payer, alice] = [await fundedAccount(sb, '20'), await fundedAccount(sb, '20')];
    await coSign(payer);
    const inner = await buildTx(sb, alice, [pay(alice, payer)], { fee: '0' });
    const bump = TransactionBuilder.buildFeeBumpTransaction(payer.publicKey(), '200', inner, PASSPHRASE);
    bump.sign(sb.treasury);
    expect((await sb.horizon.submitTransaction(bump)).successful).toBe(true);
    const inner2 = await buildTx(sb, alice, [pay(alice, payer)], { fee: '0' });
    const stranger = TransactionBuilder.buildFeeBumpTransaction(payer.publicKey(), '200', inner2, PASSPHRASE);
    stranger.sign(Keypair.random());
    expect((await submitExpectingFailure(sb, stranger)).data.extras.result_codes).toEqual({ transaction: 'tx_bad_auth' });
  });

  it('opens a sandbox file from before signers: its accounts get master weight 1 and thresholds 0', async () => {
    const db = new Database(':memory:');
    db.prepare(`CREATE TABLE sbx_accounts (id TEXT PRIMARY KEY, balance TEXT NOT NULL, seq TEXT NOT NULL,
      subentries INTEGER NOT NULL DEFAULT 0, num_sponsoring INTEGER NOT NULL DEFAULT 0,
      num_sponsored INTEGER NOT NULL DEFAULT 0, sponsor TEXT, last_modified_ledger INTEGER NOT NULL,
      seq_ledger INTEGER NOT NULL, seq_time INTEGER NOT NULL)`).run();
    const old = Keypair.random();
    db.prepare(`INSERT INTO sbx_accounts VALUES (?, '100000000', '8589934592', 0, 0, 0, NULL, 2, 2, 0)`).run(old.publicKey());
    const ledger = new SandboxLedger(db);
    expect(await ledger.store.getAccount(old.publicKey())).toMatchObject({ masterWeight: 1, lowThreshold: 0, medThreshold: 0, highThreshold: 0 });
    const tx = new TransactionBuilder(new Account(old.publicKey(), '8589934592'), { fee: '100', networkPassphrase: PASSPHRASE })
      .addOperation(Operation.setOptions({ homeDomain: 'old.example' })).setTimeout(0).build();
    tx.sign(old);
    expect(await ledger.submit(tx.toXDR())).toMatchObject({ status: 'applied', successful: true });
    db.close();
  });
});
