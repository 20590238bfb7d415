/**
 * What the payment machine tells the metrics, and how its network is metered: declared here, so
 * the pipeline knows no ops/ (ops/telemetry.ts implements it, and services.ts wires the two).
 */
import type { StellarNetwork } from '../stellar/network.js';

export interface PipelineMetrics {
  transition(intentId: string, from: string | null, to: string): void;
  paymentObserved(p: { intent: string; payment: string; asset: string; amount: string; applied: boolean; transaction: string }): void;
  settlement(outcome: 'submitted' | 'confirmed' | 'failed', fields: { intent: string; settlement: string; transaction?: string | null; code?: string }): void;
  refund(outcome: 'completed' | 'failed', fields: { refund: string; intent: string; transaction?: string | null; code?: string }): void;
}

/** Wraps a network so that each request it makes is counted (ops/network-meter.ts). */
export type NetworkMeter = <N extends StellarNetwork>(network: N) => N;
