import type { Intent } from '../app-api.js';

/** Stellar amounts carry at most 7 fraction digits: summed as BigInt stroops, never as floats. */
function toStroops(amount: string): bigint {
  const [whole = '0', fraction = ''] = amount.split('.');
  return BigInt(whole) * 10_000_000n + BigInt(fraction.padEnd(7, '0').slice(0, 7));
}

function fromStroops(stroops: bigint): string {
  return `${stroops / 10_000_000n}.${(stroops % 10_000_000n).toString().padStart(7, '0')}`;
}

const FAILED = new Set(['FAILED', 'EXPIRED']);

export interface DaySummary {
  /** credited amounts per asset, decimal strings */
  volume: [asset: string, amount: string][];
  credited: number;
  failed: number;
  open: number;
  /** intents created in each hour of the day (local time) */
  byHour: number[];
}

/** What happened today (local day of `now`) among the given intents. */
export function summariseDay(intents: Intent[], now = new Date()): DaySummary {
  const today = intents.filter((i) => new Date(i.created_at).toDateString() === now.toDateString());
  const volume = new Map<string, bigint>();
  const byHour = Array.from({ length: 24 }, () => 0);
  let credited = 0;
  let failed = 0;
  for (const intent of today) {
    byHour[new Date(intent.created_at).getHours()]!++;
    if (intent.status === 'CREDITED') {
      credited++;
      const asset = intent.requirement.asset;
      volume.set(asset, (volume.get(asset) ?? 0n) + toStroops(intent.received_amount ?? intent.requirement.amount));
    } else if (FAILED.has(intent.status)) failed++;
  }
  return {
    volume: [...volume].map(([asset, stroops]) => [asset, fromStroops(stroops)]),
    credited, failed, open: today.length - credited - failed, byHour,
  };
}
