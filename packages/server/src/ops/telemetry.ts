/**
 * What an operator's tools see of a server: Prometheus metrics (prom-client, a registry per
 * server, so several servers in one process never mix) and one structured log line per notable
 * pipeline event. The pipeline calls the event methods once its transaction has committed
 * (`sql.afterCommit`), so nothing rolled back is ever counted or logged.
 *
 * Labels carry bounded values only: operation ids of the spec, HTTP methods and statuses, intent
 * statuses, assets, network methods. Never an id of an object.
 */
import type { Logger } from 'pino';
import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';

/** Gauges read when Prometheus scrapes, from the database and the network (see gauges.ts). */
export type Collector = (telemetry: Telemetry) => Promise<void>;

const SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

function metrics(registry: Registry) {
  const registers = [registry];
  return {
    httpRequests: new Counter({ name: 'fundkit_http_requests_total', help: 'HTTP requests answered, by operation (the spec\'s operationId, or a route family) and status', labelNames: ['operation', 'method', 'status'], registers }),
    httpDuration: new Histogram({ name: 'fundkit_http_request_duration_seconds', help: 'Time to answer an HTTP request', labelNames: ['operation', 'method'], buckets: SECONDS, registers }),
    transitions: new Counter({ name: 'fundkit_intent_transitions_total', help: 'Funding intent status transitions, committed', labelNames: ['from', 'to'], registers }),
    paymentsObserved: new Counter({ name: 'fundkit_payments_observed_total', help: 'Incoming payments recorded on deposit accounts: applied to their intent, or recorded unapplied (refundable)', labelNames: ['asset', 'applied'], registers }),
    settlements: new Counter({ name: 'fundkit_settlements_total', help: 'Settlements by outcome (submitted, confirmed, failed)', labelNames: ['outcome'], registers }),
    refunds: new Counter({ name: 'fundkit_refunds_total', help: 'Refund payouts by outcome (completed, failed)', labelNames: ['outcome'], registers }),
    deliveries: new Counter({ name: 'fundkit_webhook_attempts_total', help: 'Webhook delivery attempts by outcome (succeeded, retrying, failed: given up)', labelNames: ['outcome'], registers }),
    networkRequests: new Counter({ name: 'fundkit_network_requests_total', help: 'Requests this server made to the Stellar network, by method', labelNames: ['method'], registers }),
    networkRateLimited: new Counter({ name: 'fundkit_network_rate_limited_total', help: 'Requests the Stellar network refused with 429', labelNames: ['method'], registers }),
    networkErrors: new Counter({ name: 'fundkit_network_errors_total', help: 'Requests to the Stellar network that failed (unreachable, 5xx, 429)', labelNames: ['method'], registers }),
    latestLedger: new Gauge({ name: 'fundkit_network_latest_ledger', help: 'The network\'s latest closed ledger, as last read', registers }),
    ledgersBehind: new Gauge({ name: 'fundkit_ledgers_behind', help: 'Ledgers between the network\'s tip and the last ledger the observer caught up to (pipeline server only)', registers }),
    queueDepth: new Gauge({ name: 'fundkit_queue_depth', help: 'Work waiting: deposit accounts to create, settlements, refunds, treasury submissions, webhook deliveries (pending), webhook deliveries given up (failed)', labelNames: ['queue'], registers }),
    queueOldest: new Gauge({ name: 'fundkit_queue_oldest_age_seconds', help: 'Age of the oldest item waiting in each queue (0 when empty)', labelNames: ['queue'], registers }),
    poolSize: new Gauge({ name: 'fundkit_deposit_pool_ready', help: 'Deposit accounts ready in the warm pool, per asset', labelNames: ['asset'], registers }),
    treasuryBalance: new Gauge({ name: 'fundkit_treasury_balance', help: 'The treasury\'s balance per asset (units of the asset)', labelNames: ['asset'], registers }),
    xlmHeadroom: new Gauge({ name: 'fundkit_treasury_xlm_headroom_ratio', help: 'Share of the treasury\'s XLM above its minimum balance (0..1): what is left to fund accounts, reserves and fees', registers }),
    channelsBusy: new Gauge({ name: 'fundkit_treasury_channels_busy', help: 'Channel accounts with a transaction in flight', registers }),
    channels: new Gauge({ name: 'fundkit_treasury_channels', help: 'Channel accounts the treasury submits over', registers }),
    ready: new Gauge({ name: 'fundkit_ready', help: '1 when /readyz answers 200', registers }),
  };
}

export type Metrics = ReturnType<typeof metrics>;

/**
 * The process's own health, read at scrape time, under prom-client's default names. Not its
 * collectDefaultMetrics: that one observes every garbage collection (a perf_hooks 'gc' observer),
 * which cost the request path several per cent at 10k requests a second (bench, section metrics).
 */
function processMetrics(registry: Registry): IntervalHistogram {
  const loop = monitorEventLoopDelay({ resolution: 20 });
  loop.enable();
  const registers = [registry];
  const seconds = (ns: number) => (Number.isFinite(ns) ? ns / 1e9 : 0);
  new Gauge({ name: 'nodejs_eventloop_lag_seconds', help: 'Mean event-loop delay since the last scrape', registers, collect() { this.set(seconds(loop.mean)); } });
  new Gauge({ name: 'nodejs_eventloop_lag_p99_seconds', help: '99th percentile of the event-loop delay since the last scrape', registers, collect() { this.set(seconds(loop.percentile(99))); } });
  new Gauge({ name: 'nodejs_eventloop_lag_max_seconds', help: 'Longest event-loop delay since the last scrape', registers, collect() { this.set(seconds(loop.max)); loop.reset(); } });
  new Counter({ name: 'process_cpu_seconds_total', help: 'CPU time of the process (user and system)', registers, collect() {
    const { user, system } = process.cpuUsage();
    this.reset();
    this.inc((user + system) / 1e6);
  } });
  new Gauge({ name: 'process_resident_memory_bytes', help: 'Resident memory of the process', registers, collect() { this.set(process.memoryUsage.rss()); } });
  new Gauge({ name: 'nodejs_heap_size_used_bytes', help: 'V8 heap in use', registers, collect() { this.set(process.memoryUsage().heapUsed); } });
  new Gauge({ name: 'process_start_time_seconds', help: 'When the process started (unix seconds)', registers, collect() { this.set(Math.round(Date.now() / 1000 - process.uptime())); } });
  return loop;
}

export class Telemetry {
  readonly registry = new Registry();
  readonly m: Metrics;
  private readonly collectors: Collector[] = [];
  /** bounded: operations × methods × statuses */
  private readonly httpSeries = new Map<string, { count: { inc(): void }; duration: { observe(v: number): void } }>();

  private readonly loop: IntervalHistogram | null = null;

  constructor(private readonly logger: Logger, readonly enabled = true) {
    this.m = metrics(this.registry);
    if (enabled) this.loop = processMetrics(this.registry);
  }

  /** Stops the event-loop monitor (the server closes). */
  close(): void {
    this.loop?.disable();
  }

  /** Scrape-time readers (queues, pool, treasury); each failure is logged and leaves its gauges as they were. */
  addCollector(collector: Collector): void {
    this.collectors.push(collector);
  }

  async scrape(): Promise<string> {
    await Promise.all(this.collectors.map((c) => c(this).catch((error: unknown) => this.logger.warn({ err: error }, 'a metrics collector failed'))));
    return this.registry.metrics();
  }

  // ---- notable pipeline events: a counter, and one log line the operator sees at `info` ----

  transition(intentId: string, from: string | null, to: string): void {
    this.m.transitions.inc({ from: from ?? 'none', to });
    if (to === 'CREDITED' || to === 'FAILED' || to === 'REFUNDED') this.logger.info({ event: `intent.${to.toLowerCase()}`, intent: intentId, from }, `intent ${to}`);
  }

  paymentObserved(p: { intent: string; payment: string; asset: string; amount: string; applied: boolean; transaction: string }): void {
    this.m.paymentsObserved.inc({ asset: p.asset, applied: String(p.applied) });
    this.logger.info({ event: 'payment.observed', ...p }, `payment observed: ${p.amount} ${p.asset}${p.applied ? '' : ' (not applied: refundable)'}`);
  }

  settlement(outcome: 'submitted' | 'confirmed' | 'failed', fields: { intent: string; settlement: string; transaction?: string | null; code?: string }): void {
    this.m.settlements.inc({ outcome });
    this.logger[outcome === 'failed' ? 'warn' : 'info']({ event: `settlement.${outcome}`, ...fields }, `settlement ${outcome}`);
  }

  refund(outcome: 'completed' | 'failed', fields: { refund: string; intent: string; transaction?: string | null; code?: string }): void {
    this.m.refunds.inc({ outcome });
    this.logger[outcome === 'failed' ? 'warn' : 'info']({ event: `refund.${outcome}`, ...fields }, `refund ${outcome}`);
  }

  deliveryAttempt(outcome: 'succeeded' | 'retrying' | 'failed', fields: { delivery: string; endpoint: string; event_id: string; status: number | null }): void {
    this.m.deliveries.inc({ outcome });
    if (outcome === 'failed') this.logger.warn({ event: 'webhook.delivery_failed', ...fields }, 'webhook delivery given up after its last retry');
  }

  networkRequest(method: string, failure: 'rate_limited' | 'error' | null): void {
    this.m.networkRequests.inc({ method });
    if (failure) this.m.networkErrors.inc({ method });
    if (failure === 'rate_limited') this.m.networkRateLimited.inc({ method });
  }

  /** On every request: the labelled series are looked up once per label set, not hashed per request. */
  httpRequest(operation: string, method: string, status: number, seconds: number): void {
    const key = `${operation} ${method} ${status}`;
    let series = this.httpSeries.get(key);
    if (!series) {
      series = { count: this.m.httpRequests.labels(operation, method, String(status)), duration: this.m.httpDuration.labels(operation, method) };
      this.httpSeries.set(key, series);
    }
    series.count.inc();
    series.duration.observe(seconds);
  }
}
