/** The ledgers the sandbox holds, as stellar-rpc's ledger range (its oldest and latest, with close times). */
import type { SandboxLedger } from '../ledger.js';

export interface LedgerPoint {
  sequence: number;
  /** Unix seconds. */
  closeTime: number;
}

export interface LedgerRange {
  oldest: LedgerPoint;
  latest: LedgerPoint;
}

const seconds = (iso: string | undefined) => (iso ? Math.floor(Date.parse(iso) / 1000) : 0);

export async function closeTimeOf(ledger: SandboxLedger, seq: number): Promise<number> {
  return seconds((await ledger.getLedger(seq))?.closed_at);
}

export async function ledgerRange(ledger: SandboxLedger): Promise<LedgerRange> {
  const latest = await ledger.ledgerSequence();
  const oldest = Math.min(await ledger.elderLedger(), latest);
  return {
    oldest: { sequence: oldest, closeTime: await closeTimeOf(ledger, oldest) },
    latest: { sequence: latest, closeTime: await closeTimeOf(ledger, latest) },
  };
}
