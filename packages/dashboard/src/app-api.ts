/**
 * One application's operations, reached with the account session plus Fundkit-Application and
 * Fundkit-Environment (spec: "Dashboard sessions"). Goes through Api.call, the only fetch caller.
 */
import type { Api, Page } from './api.js';

export type Mode = 'test' | 'live';
export type Network = 'sandbox' | 'testnet' | 'pubnet';

export interface Intent {
  id: string;
  status: string;
  reference: string | null;
  requirement: { amount: string; asset: string };
  received_amount: string | null;
  deposit_account: { address: string | null; status: string; network: string } | null;
  payment: Payment | null;
  settlement: Settlement | null;
  failure: { code?: string; message?: string } | null;
  livemode: boolean;
  expires_at: string;
  created_at: string;
  updated_at: string;
}

export interface Payment {
  id: string;
  funding_intent_id: string;
  stellar_network: Network;
  asset: string;
  amount: string;
  payer_address: string;
  transaction_hash: string;
  status: string;
  detected_at: string;
  confirmed_at: string | null;
  refundable_amount: string | null;
}

export interface Refund {
  id: string;
  payment_id: string;
  asset: string;
  amount: string;
  reason: string;
  status: string;
  transaction_hash: string | null;
  failure: { message?: string } | null;
  created_at: string;
}

export interface Settlement {
  id: string;
  funding_intent_id: string;
  stellar_network: Network;
  status: string;
  /** the payment that funded it */
  transaction_hash: string | null;
  /** the transfer to the destination: what "View on explorer" opens */
  transfer_transaction_hash: string | null;
  destination: { address?: string; asset?: string; amount?: string };
  confirmed_at: string | null;
  created_at: string;
}

export interface Balance { asset: string; available: string; pending: string }
export interface Entry { id: string; direction: string; type: string; asset: string; amount: string; description: string; created_at: string }
export interface Endpoint { id: string; url: string; events: string[]; enabled: boolean; description: string | null; created_at: string; secret?: string }
export interface Attempt { number: number; status_code: number | null; error: string | null; attempted_at: string; latency_ms: number | null }
export interface Delivery { id: string; event_id: string; event_type: string; status: string; attempts: Attempt[]; next_attempt_at: string | null; created_at: string }
export interface ApiEvent { id: string; type: string; created_at: string; data: Record<string, unknown> }
export interface RequestLog { id: string; request_id: string; method: string; path: string; status: number; duration_ms: number; created_at: string }

/** the API refunds what is refundable (no amount in the request); destination defaults to the payer */
export interface RefundInput { reason: string; destination_address?: string }

const q = (params: Record<string, string | undefined>) => {
  const search = new URLSearchParams(Object.entries(params).filter((e): e is [string, string] => Boolean(e[1])));
  return search.toString() ? `?${search}` : '';
};
const id = encodeURIComponent;

export class AppApi {
  constructor(private readonly api: Api, readonly appId: string, readonly mode: Mode) {}

  private call<T>(method: string, path: string, body?: unknown): Promise<T> {
    return this.api.call<T>(method, path, body, { 'fundkit-application': this.appId, 'fundkit-environment': this.mode });
  }

  listIntents(filter: { status?: string; reference?: string; cursor?: string; limit?: string }) {
    return this.call<Page<Intent>>('GET', `/v1/funding-intents${q({ limit: '20', ...filter })}`);
  }
  intent(intentId: string) {
    return this.call<Intent>('GET', `/v1/funding-intents/${id(intentId)}`);
  }
  payments(intentId: string) {
    return this.call<Page<Payment>>('GET', `/v1/funding-intents/${id(intentId)}/payments?limit=100`);
  }
  refunds(intentId: string) {
    return this.call<Page<Refund>>('GET', `/v1/refunds${q({ funding_intent_id: intentId, limit: '100' })}`);
  }
  refund(intentId: string, paymentId: string, input: RefundInput) {
    return this.call<Refund>('POST', `/v1/funding-intents/${id(intentId)}/payments/${id(paymentId)}/refunds`, input);
  }
  settlements(cursor?: string) {
    return this.call<Page<Settlement>>('GET', `/v1/settlements${q({ limit: '20', cursor })}`);
  }
  balances() {
    return this.call<Page<Balance>>('GET', '/v1/ledger/balances');
  }
  entries(filter: { funding_intent_id?: string; cursor?: string }) {
    return this.call<Page<Entry>>('GET', `/v1/ledger/entries${q({ limit: '20', ...filter })}`);
  }
  events(filter: { type?: string; cursor?: string; limit?: string }) {
    return this.call<Page<ApiEvent>>('GET', `/v1/events${q({ limit: '20', ...filter })}`);
  }
  endpoints() {
    return this.call<Page<Endpoint>>('GET', '/v1/webhooks?limit=100');
  }
  createEndpoint(url: string, events: string[]) {
    return this.call<Endpoint & { secret: string }>('POST', '/v1/webhooks', { url, events });
  }
  setEndpointEnabled(endpointId: string, enabled: boolean) {
    return this.call<Endpoint>('PATCH', `/v1/webhooks/${id(endpointId)}`, { enabled });
  }
  rotateSecret(endpointId: string) {
    return this.call<Endpoint & { secret: string }>('POST', `/v1/webhooks/${id(endpointId)}/rotate-secret`, {});
  }
  deliveries(endpointId: string, cursor?: string) {
    return this.call<Page<Delivery>>('GET', `/v1/webhooks/${id(endpointId)}/deliveries${q({ limit: '20', cursor })}`);
  }
  redeliver(endpointId: string, deliveryId: string) {
    return this.call<Delivery>('POST', `/v1/webhooks/${id(endpointId)}/deliveries/${id(deliveryId)}/redeliver`, {});
  }
  requestLogs(filter: { status?: string; method?: string; cursor?: string }) {
    return this.call<Page<RequestLog>>('GET', `/v1/request_logs${q({ limit: '20', ...filter })}`);
  }
  testPay(intent: Intent) {
    return this.call<unknown>('POST', `/v1/test_helpers/funding-intents/${id(intent.id)}/payments`, { amount: intent.requirement.amount, asset: intent.requirement.asset });
  }
  testExpire(intentId: string) {
    return this.call<Intent>('POST', `/v1/test_helpers/funding-intents/${id(intentId)}/expire`, {});
  }
}
