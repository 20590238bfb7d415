import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { NotFoundError, type WebhookDelivery, type WebhookEvent } from '@fundkit/sdk';
import { WEBHOOK_EVENT_TYPES } from '@fundkit/webhooks';
import { stringFlag, UsageError, type ParsedArgs } from './args.js';
import { sleep, type CommandContext } from './context.js';

/**
 * `fundkit listen --forward-to <url> [--events a,b] [--keep]`.
 *
 * Design: the server itself delivers to the forward-to URL. The CLI registers that URL as a
 * webhook endpoint (test keys may use localhost), prints its signing secret, and tails the
 * endpoint's deliveries, printing every attempt and the receiver's answer. No relay sits in
 * between, so what the receiver gets is byte for byte what production sends, retries included.
 * The endpoint and its secret are remembered (~/.config/fundkit/listen.json), so the secret in the
 * receiver's environment stays valid across runs; on exit the endpoint is disabled, not deleted.
 */
export async function listen(ctx: CommandContext, args: ParsedArgs): Promise<number> {
  const url = stringFlag(args, 'forward-to');
  if (!url) throw new UsageError('usage: fundkit listen --forward-to http://localhost:3000/webhooks/fundkit [--events payment.completed,refund.completed] [--keep]');
  const events = parseEvents(stringFlag(args, 'events'));
  const registered = await endpointYourCodeRegistered(ctx, url);
  if (registered) return watchOnly(ctx, registered, url);
  const endpoint = await ensureEndpoint(ctx, url, events);
  if (ctx.json) ctx.print({ object: 'listen_ready', webhook_endpoint_id: endpoint.id, secret: endpoint.secret, url, events });
  ctx.say(`Ready. Forwarding ${events.length === WEBHOOK_EVENT_TYPES.length ? 'all events' : events.join(', ')} to ${url}`);
  ctx.say(`Webhook signing secret: ${endpoint.secret}   (endpoint ${endpoint.id}; set FUNDKIT_WEBHOOK_SECRET to it)`);
  ctx.say('Press Ctrl-C to stop.\n');
  await tail(ctx, endpoint.id);
  if (args.flags.keep !== true) await ctx.fk.webhookEndpoints.update(endpoint.id, { enabled: false });
  ctx.say(args.flags.keep === true ? `Stopped; endpoint ${endpoint.id} stays enabled.` : `Stopped; endpoint ${endpoint.id} disabled (the next listen enables it again).`);
  return 0;
}

function parseEvents(raw: string | undefined): WebhookEvent['type'][] {
  if (!raw) return [...WEBHOOK_EVENT_TYPES];
  const list = raw.split(',').map((s) => s.trim()).filter(Boolean);
  const unknown = list.filter((t) => !(WEBHOOK_EVENT_TYPES as readonly string[]).includes(t));
  if (unknown.length > 0 || list.length === 0) throw new UsageError(`unknown event type ${unknown.join(', ') || '(none)'}; known: ${WEBHOOK_EVENT_TYPES.join(', ')}`);
  return [...new Set(list)] as WebhookEvent['type'][];
}

/**
 * An enabled endpoint at this URL that something else registered (the example shop registers its
 * own on start): a second endpoint there would sign each event with another secret, and the code
 * would refuse those deliveries (400 signature mismatch).
 */
async function endpointYourCodeRegistered(ctx: CommandContext, url: string): Promise<{ id: string } | null> {
  for await (const endpoint of ctx.fk.webhookEndpoints.list()) {
    if (endpoint.url === url && endpoint.enabled && endpoint.description !== LISTEN_DESCRIPTION) return endpoint;
  }
  return null;
}

/** Tails the deliveries of an endpoint listen did not register; it stays as its owner left it. */
async function watchOnly(ctx: CommandContext, endpoint: { id: string }, url: string): Promise<number> {
  if (ctx.json) ctx.print({ object: 'listen_ready', webhook_endpoint_id: endpoint.id, secret: null, url });
  ctx.say(`Ready. ${url} is already endpoint ${endpoint.id}, registered by your code: showing its deliveries`);
  ctx.say('(no second endpoint: your code verifies with the secret it got when it registered this one)');
  ctx.say('Press Ctrl-C to stop.\n');
  await tail(ctx, endpoint.id);
  ctx.say(`Stopped; endpoint ${endpoint.id} is left as it was.`);
  return 0;
}

const LISTEN_DESCRIPTION = 'fundkit listen';

type Saved = Record<string, { id: string; secret: string }>;

function statePath(ctx: CommandContext): string {
  return join(ctx.io.env.FUNDKIT_CONFIG_DIR ?? join(ctx.io.env.HOME ?? homedir(), '.config', 'fundkit'), 'listen.json');
}

async function ensureEndpoint(ctx: CommandContext, url: string, events: WebhookEvent['type'][]): Promise<{ id: string; secret: string }> {
  const path = statePath(ctx);
  const saved: Saved = existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as Saved) : {};
  // keyed by server and application (the key's tail), since an endpoint belongs to one application
  const slot = `${ctx.apiBase} ${ctx.keyTail} ${url}`;
  const known = saved[slot];
  if (known) {
    try {
      await ctx.fk.webhookEndpoints.update(known.id, { enabled: true, events });
      return known;
    } catch (error) {
      if (!(error instanceof NotFoundError)) throw error;
    }
  }
  const created = await ctx.fk.webhookEndpoints.create({ url, events, description: LISTEN_DESCRIPTION });
  saved[slot] = { id: created.id, secret: created.secret };
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, JSON.stringify(saved, null, 2), { mode: 0o600 });
  return saved[slot];
}

/** Polls the endpoint's deliveries until aborted, printing each attempt once. */
async function tail(ctx: CommandContext, endpointId: string): Promise<void> {
  const seen = new Map<string, number>();
  // what happened before this session is history, not news
  for (const d of (await ctx.fk.webhookEndpoints.deliveries(endpointId, { limit: 100 })).data) seen.set(d.id, d.attempts.length);
  while (!ctx.io.signal?.aborted) {
    await sleep(ctx.io.pollMs ?? 500, ctx.io.signal);
    if (ctx.io.signal?.aborted) break;
    const page = await ctx.fk.webhookEndpoints.deliveries(endpointId, { limit: 100 });
    for (const d of [...page.data].reverse()) report(ctx, d, seen);
  }
}

function report(ctx: CommandContext, d: WebhookDelivery, seen: Map<string, number>): void {
  const before = seen.get(d.id);
  if (before === undefined) ctx.say(`${time(d.created_at)}  --> ${d.event_type} [${d.event_id}]`);
  for (const attempt of d.attempts.slice(before ?? 0)) {
    const failed = attempt.status_code !== null && (attempt.status_code < 200 || attempt.status_code > 299);
    // a refusal's body usually says why (a signature mismatch: the receiver holds another secret)
    const answer = attempt.status_code === null ? `no answer (${attempt.error ?? 'error'})` : `[${attempt.status_code}]`;
    const retry = d.status === 'PENDING' && d.next_attempt_at && attempt === d.attempts.at(-1) ? `, retry at ${time(d.next_attempt_at)}` : '';
    ctx.say(`${time(attempt.attempted_at)}  <-- ${answer} ${d.event_type} attempt ${attempt.number}${attempt.latency_ms === null ? '' : ` in ${attempt.latency_ms} ms`}${retry} [${d.id}]`);
    if (failed && attempt.response_excerpt) ctx.say(`            ${attempt.response_excerpt.replace(/\s+/g, ' ').slice(0, 160)}`);
    if (ctx.json) ctx.print({ object: 'delivery_attempt', delivery_id: d.id, event_id: d.event_id, event_type: d.event_type, status: d.status, ...attempt });
  }
  seen.set(d.id, d.attempts.length);
}

function time(iso: string): string {
  return iso.slice(11, 19);
}
