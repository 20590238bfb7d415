import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import type { Fundkit, OperationId } from '../src/index.js';
import { BASE, client, specOperations, useMsw } from './helpers.js';

const server = useMsw();

/**
 * operationId → the SDK method that reaches it. Typed as a Record over every operationId, so a
 * new operation in the spec breaks the typecheck until a method exists.
 */
const calls: Record<OperationId, (fk: Fundkit) => PromiseLike<unknown>> = {
  createFundingIntent: (fk) => fk.fundingIntents.create({ amount: '10', asset: 'USDC' }),
  listFundingIntents: (fk) => fk.fundingIntents.list({ status: 'CREATED' }),
  retrieveFundingIntent: (fk) => fk.fundingIntents.retrieve('fi_1'),
  cancelFundingIntent: (fk) => fk.fundingIntents.cancel('fi_1'),
  listFundingIntentPayments: (fk) => fk.fundingIntents.payments('fi_1'),
  createRefund: (fk) => fk.refunds.create('fi_1', 'pay_1', { reason: 'MANUAL' }),
  listPaymentRefunds: (fk) => fk.refunds.listForPayment('fi_1', 'pay_1'),
  listFundingOptions: (fk) => fk.fundingIntents.options('fi_1'),
  retrievePublicFundingIntent: (fk) => fk.checkoutSessions.publicIntent('fi_1'),
  streamPublicFundingIntentStatus: (fk) => fk.checkoutSessions.status('fi_1'),
  listPayments: (fk) => fk.payments.list(),
  retrievePayment: (fk) => fk.payments.retrieve('pay_1'),
  listRefunds: (fk) => fk.refunds.list(),
  retrieveRefund: (fk) => fk.refunds.retrieve('rf_1'),
  listSettlements: (fk) => fk.settlements.list(),
  retrieveSettlement: (fk) => fk.settlements.retrieve('stl_1'),
  listLedgerBalances: (fk) => fk.ledger.balances(),
  listLedgerEntries: (fk) => fk.ledger.entries(),
  createSimpleQuote: (fk) => fk.quotes.create({ from_currency: 'XLM', to_currency: 'USDC', amount: 10, direction: 'send' }),
  listQuotes: (fk) => fk.quotes.list(),
  retrieveQuote: (fk) => fk.quotes.retrieve('qt_1'),
  acceptQuote: (fk) => fk.quotes.accept('qt_1'),
  retrieveRouteExecution: (fk) => fk.routeExecutions.retrieve('rex_1'),
  retryRouteExecution: (fk) => fk.routeExecutions.retry('rex_1'),
  resumeRouteExecution: (fk) => fk.routeExecutions.resume('rex_1'),
  createCheckoutSession: (fk) => fk.checkoutSessions.create({ funding_intent_id: 'fi_1' }),
  createCheckoutHandoff: (fk) => fk.checkoutSessions.handoff('cst_1'),
  resumeCheckoutSession: (fk) => fk.checkoutSessions.resume({ handoff_token: 'hot_1' }),
  listAssets: (fk) => fk.assets.list(),
  retrieveAsset: (fk) => fk.assets.retrieve('USDC'),
  createWebhookEndpoint: (fk) => fk.webhookEndpoints.create({ url: 'https://example.com/hook', events: ['payment.completed'] }),
  listWebhookEndpoints: (fk) => fk.webhookEndpoints.list(),
  retrieveWebhookEndpoint: (fk) => fk.webhookEndpoints.retrieve('we_1'),
  updateWebhookEndpoint: (fk) => fk.webhookEndpoints.update('we_1', { description: 'x' }),
  deleteWebhookEndpoint: (fk) => fk.webhookEndpoints.del('we_1'),
  rotateWebhookSecret: (fk) => fk.webhookEndpoints.rotateSecret('we_1'),
  expireWebhookPreviousSecret: (fk) => fk.webhookEndpoints.expirePreviousSecret('we_1'),
  sendTestWebhook: (fk) => fk.webhookEndpoints.sendTest('we_1'),
  listWebhookDeliveries: (fk) => fk.webhookEndpoints.deliveries('we_1'),
  redeliverWebhook: (fk) => fk.webhookEndpoints.redeliver('we_1', 'wd_1'),
  listEvents: (fk) => fk.events.list(),
  retrieveEvent: (fk) => fk.events.retrieve('evt_1'),
  createApplication: (fk) => fk.applications.create({ name: 'Shop' }),
  listApplications: (fk) => fk.applications.list(),
  retrieveApplication: (fk) => fk.applications.retrieve('app_1'),
  updateApplication: (fk) => fk.applications.update('app_1', { name: 'Shop 2' }),
  createApiKey: (fk) => fk.applications.keys.create('app_1', { environment: 'test', type: 'secret' }),
  listApiKeys: (fk) => fk.applications.keys.list('app_1'),
  revokeApiKey: (fk) => fk.applications.keys.revoke('app_1', 'key_1'),
  uploadApplicationLogo: (fk) => fk.applications.logo.upload('app_1', new Uint8Array([137, 80, 78, 71]), 'image/png'),
  retrieveApplicationLogo: (fk) => fk.applications.logo.retrieve('app_1'),
  signUp: (fk) => fk.auth.signUp({ email: 'a@example.com', password: 'correct horse battery' }),
  verifyEmail: (fk) => fk.auth.verifyEmail({ token: 't' }),
  signIn: (fk) => fk.auth.signIn({ email: 'a@example.com', password: 'correct horse battery' }),
  signOut: (fk) => fk.auth.signOut(),
  retrieveAccountSession: (fk) => fk.auth.session(),
  listRequestLogs: (fk) => fk.requestLogs.list(),
  retrieveRequestLog: (fk) => fk.requestLogs.retrieve('req_1'),
  listPlatformApplications: (fk) => fk.platform.applications.list(),
  deactivateApplication: (fk) => fk.platform.applications.deactivate('app_1'),
  reactivateApplication: (fk) => fk.platform.applications.reactivate('app_1'),
  updatePlatformAsset: (fk) => fk.platform.assets.update('USDC', { enabled: false }),
  listUnattributedPayments: (fk) => fk.platform.unattributedPayments.list(),
  refundUnattributedPayment: (fk) => fk.platform.unattributedPayments.refund('pay_1'),
  createTestPayment: (fk) => fk.testHelpers.pay('fi_1', { amount: '10', asset: 'USDC' }),
  expireTestFundingIntent: (fk) => fk.testHelpers.expire('fi_1'),
  failTestSettlement: (fk) => fk.testHelpers.failSettlement('fi_1'),
};

function templateToRegExp(path: string): RegExp {
  return new RegExp(`^${path.replace(/\{[^}]+\}/g, '[^/]+')}$`);
}

describe('every operation of the spec is reachable', () => {
  const operations = specOperations();

  it('maps exactly the operationIds of spec/openapi.yaml paths', () => {
    expect(Object.keys(calls).sort()).toEqual(operations.map((o) => o.operationId).sort());
  });

  it.each(operations)('$operationId → $method $path', async (op) => {
    const seen: { method: string; path: string; key: string | null }[] = [];
    server.use(http.all(`${BASE}/*`, ({ request }) => {
      seen.push({ method: request.method, path: new URL(request.url).pathname, key: request.headers.get('idempotency-key') });
      return HttpResponse.json({ object: 'list', data: [], next_cursor: null }, { headers: { 'x-request-id': 'req_1' } });
    }));
    await calls[op.operationId as OperationId](client());
    expect(seen).toHaveLength(1);
    expect(seen[0]!.method).toBe(op.method);
    expect(seen[0]!.path).toMatch(templateToRegExp(op.path));
    if (op.idempotencyKey === 'none') expect(seen[0]!.key).toBeNull();
    else expect(seen[0]!.key?.length).toBeGreaterThanOrEqual(8);
  });
});
