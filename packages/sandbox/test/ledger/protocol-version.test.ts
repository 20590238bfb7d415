/**
 * The sandbox runs the protocol testnet and pubnet run (27: see PROTOCOL_VERSION in
 * packages/sandbox/src/ledgers.ts for the source). The number is written here, not imported, so a
 * change to the constant has to change this test too.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Asset, Horizon, Operation, xdr } from '@stellar/stellar-sdk';
import { buildTx, fundedAccount, startSandbox, type Sandbox } from './helpers.js';

const PROTOCOL = 27;

let sb: Sandbox;
beforeEach(async () => { sb = await startSandbox(); });
afterEach(async () => { await sb.close(); });

describe('sandbox protocol version', () => {
  it('is what the Horizon root reports, read through the SDK', async () => {
    const root = await sb.horizon.root();
    expect(root.current_protocol_version).toBe(PROTOCOL);
    expect(root.supported_protocol_version).toBe(PROTOCOL);
    expect(root.core_supported_protocol_version).toBe(PROTOCOL);
  });

  it('is written in every closed ledger\'s header XDR and its Horizon record', async () => {
    const alice = await fundedAccount(sb);
    const paid = await sb.horizon.submitTransaction(await buildTx(sb, alice, [
      Operation.payment({ destination: sb.treasury.publicKey(), asset: Asset.native(), amount: '1' })]));
    const elder = (await sb.horizon.root()).history_elder_ledger;
    expect(elder).toBeLessThan(paid.ledger);
    for (const seq of [elder, paid.ledger]) {
      const ledger = await sb.horizon.ledgers().ledger(seq).call() as unknown as Horizon.ServerApi.LedgerRecord;
      expect(ledger.sequence).toBe(seq);
      expect(ledger.protocol_version).toBe(PROTOCOL);
      const header = xdr.LedgerHeader.fromXdr(ledger.header_xdr, 'base64');
      expect(header.ledgerSeq).toBe(seq);
      expect(header.ledgerVersion).toBe(PROTOCOL);
    }
  });
});
