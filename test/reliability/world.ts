/**
 * A populated server for the fuzzer and the auth matrix: for each application and environment an
 * open intent, a credited one with a refundable surplus, a refund, a webhook endpoint, a checkout
 * session and quotes; an account with its own application and key; the operator key.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestServer } from '../../packages/server/test/helpers/server.js';
import { accountSession, checkoutSession, createIntent, idem, KEYS, must, OPERATOR_KEY, pay, send, until, type AppName, type Env } from './harness.js';

export interface Objects {
  intent: string;
  creditedIntent: string;
  payment: string;
  refund: string;
  settlement: string | null;
  webhook: string;
  delivery: string | null;
  event: string | null;
  quote: string;
  /** made by accepting an XLM quote (test mode only: live has no network here) */
  routeExecution: string | null;
  session: { id: string; token: string };
  handoffToken: string;
  requestLog: string | null;
}

export interface World {
  t: TestServer;
  /** objects per application and environment */
  objects: Record<AppName, Partial<Record<Env, Objects>>>;
  account: { token: string; application: string; key: string };
  /** a second account's application (for "not yours" in the dashboard) */
  otherAccount: { token: string; application: string };
  applications: Record<AppName, string>;
  receiver: Server;
  close(): Promise<void>;
}

/** A webhook receiver that always answers 200, so deliveries succeed and stay quiet. */
async function okReceiver(): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200).end('ok'));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks` };
}

async function objectsFor(t: TestServer, key: string, hookUrl: string, live: boolean): Promise<Objects> {
  const intent = await createIntent(t, key);
  const credited = await createIntent(t, key);
  const webhook = await must(t, { method: 'POST', path: '/v1/webhooks', key, body: { url: live ? 'https://hooks.example.org/fundkit' : hookUrl, events: ['payment.pending', 'invoice.paid', 'refund.created'] } }, 201);
  const session = await checkoutSession(t, key, intent.id);
  const handoff = await must(t, { method: 'POST', path: `/v1/checkout_sessions/${session.id}/handoff`, key, body: {}, headers: { 'idempotency-key': idem() } }, 201);
  const options = await must(t, { method: 'GET', path: `/v1/funding_intents/${intent.id}/options`, key }, 200);
  let payment = 'pay_none';
  let refund = 'rf_none';
  let settlement: string | null = null;
  let routeExecution: string | null = null;
  // live keys run on pubnet: no sandbox payments there (the test helpers are test-only)
  if (!live) {
    await pay(t, key, credited.id, '30');
    await until(() => send(t, { method: 'GET', path: `/v1/funding-intents/${credited.id}`, key }), (g) => g.body?.status === 'CREDITED');
    payment = (await must(t, { method: 'GET', path: `/v1/funding-intents/${credited.id}/payments`, key }, 200)).data[0].id;
    refund = (await must(t, { method: 'POST', path: `/v1/funding-intents/${credited.id}/payments/${payment}/refunds`, key, body: { reason: 'OVERPAYMENT' } }, 201)).id;
    settlement = (await must(t, { method: 'GET', path: `/v1/settlements?funding_intent_id=${credited.id}`, key }, 200)).data[0]?.id ?? null;
    const converting = await createIntent(t, key);
    const xlm = (await must(t, { method: 'GET', path: `/v1/funding_intents/${converting.id}/options`, key }, 200)).options.find((o: { source: { asset: string } }) => o.source.asset === 'XLM');
    routeExecution = (await must(t, { method: 'POST', path: `/v1/quotes/${xlm.id}/accept`, key, headers: { 'idempotency-key': idem() } }, 200)).execution?.id ?? null;
  }
  const first = async (path: string) => ((await send(t, { method: 'GET', path, key })).body?.data?.[0]?.id as string | undefined) ?? null;
  return {
    intent: intent.id, creditedIntent: credited.id, payment, refund, settlement, webhook: webhook.id,
    delivery: await first(`/v1/webhooks/${webhook.id}/deliveries`), event: await first('/v1/events'),
    quote: options.options[0].id, routeExecution, session: { id: session.id, token: session.session_token }, handoffToken: handoff.handoff_token,
    requestLog: await first('/v1/request_logs'),
  };
}

export async function buildWorld(t: TestServer): Promise<World> {
  const { server: receiver, url } = await okReceiver();
  const objects: World['objects'] = { alpha: {}, beta: {} };
  for (const app of ['alpha', 'beta'] as const) {
    for (const env of ['test', 'live'] as const) objects[app][env] = await objectsFor(t, KEYS[app][env].secret, url, env === 'live');
  }
  const token = await accountSession(t, 'rel-owner@example.org');
  const application = (await must(t, { method: 'POST', path: '/v1/applications', key: token, body: { name: 'Owned' } }, 201)).id;
  const apiKey = (await must(t, { method: 'POST', path: `/v1/applications/${application}/keys`, key: token, body: { environment: 'test', type: 'secret' } }, 201)).id;
  const otherToken = await accountSession(t, 'rel-other@example.org');
  const other = (await must(t, { method: 'POST', path: '/v1/applications', key: otherToken, body: { name: 'Other' } }, 201)).id;
  const platform = await must(t, { method: 'GET', path: '/v1/platform/applications?limit=100', key: OPERATOR_KEY }, 200);
  const idOf = (name: string) => platform.data.find((a: { name: string }) => a.name === name).id as string;
  return {
    t, objects, receiver,
    account: { token, application, key: apiKey },
    otherAccount: { token: otherToken, application: other },
    applications: { alpha: idOf('alpha'), beta: idOf('beta') },
    close: () => new Promise((resolve) => {
      receiver.closeAllConnections();
      receiver.close(() => resolve());
    }),
  };
}

/** Alpha's test-mode object each path parameter of an operation names, chosen by where it sits in the path. */
export function pathValues(world: World, path: string): Record<string, string> {
  const o = world.objects.alpha.test!;
  const table: [RegExp, string][] = [
    [/test_helpers|funding[-_]intents\/\{id\}\/payments/, o.creditedIntent], [/funding[-_]intents/, o.intent], [/^\/v1\/payments/, o.payment],
    [/refunds/, o.refund], [/settlements/, o.settlement ?? 'stl_none'], [/quotes/, o.quote], [/route-executions/, o.routeExecution ?? 'rex_none'], [/checkout_sessions/, o.session.id],
    [/assets/, 'USDC'], [/webhooks/, o.webhook], [/events/, o.event ?? 'evt_none'], [/platform\/applications/, world.applications.beta],
    [/applications/, world.account.application], [/request_logs/, o.requestLog ?? 'req_none'],
  ];
  return {
    id: table.find(([re]) => re.test(path))?.[1] ?? 'x',
    paymentId: o.payment, deliveryId: o.delivery ?? 'wd_none', keyId: world.account.key,
  };
}
