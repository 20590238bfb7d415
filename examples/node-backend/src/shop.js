import { createResumeHandler, Fundkit } from '@fundkit/sdk';
import { fundkitWebhooks } from '@fundkit/webhooks/express';
import express from 'express';
import { Orders } from './orders.js';
import { orderPage, pageHeaders, shopPage } from './pages.js';

const WEBHOOK_PATH = '/webhooks/fundkit';
const ENDPOINT_DESCRIPTION = 'example-node-backend';

/**
 * The shop as an Express app (no listen): `start()` in main.js listens, then calls
 * `registerWebhooks(url)` so the reference server knows where to deliver.
 */
export function createShop({ apiKey, apiBase, logger = console }) {
  const fk = new Fundkit({ apiKey, baseUrl: apiBase });
  const orders = new Orders();
  const app = express();
  // the signing secret exists only once the endpoint is registered, after listen
  let verify = null;

  // Webhooks first: the middleware needs the raw body, so no express.json() may run before it.
  app.post(WEBHOOK_PATH, (req, res, next) => (verify ? verify(req, res, next) : res.status(503).json({ error: 'not ready' })), (req, res) => {
    const event = req.fundkitEvent;
    if (event.type === 'payment.completed' && orders.markPaid(event)) {
      logger.info(`order of ${event.data.funding_intent_id} paid: ${event.data.amount_decimal} ${event.data.currency} (event ${event.id})`);
    }
    res.json({ received: true });
  });

  app.get('/', (_req, res) => {
    pageHeaders(res, apiBase);
    res.type('html').send(shopPage());
  });

  // Buy: an intent for the order (the order id is the idempotency key: a double click makes one intent)
  app.post('/orders', async (_req, res, next) => {
    try {
      const order = orders.create('Fundkit T-shirt', '25.00');
      const intent = await fk.fundingIntents.create(
        { amount: order.amount, asset: order.asset, reference: order.id, metadata: { order_id: order.id } },
        { idempotencyKey: `intent_${order.id}` },
      );
      order.fundingIntentId = intent.id;
      res.redirect(303, `/orders/${order.id}`);
    } catch (error) {
      next(error);
    }
  });

  // A fresh checkout session on every load: tokens live 30 minutes, the page may be reopened later.
  app.get('/orders/:id', async (req, res, next) => {
    const order = orders.get(req.params.id);
    if (!order) return res.status(404).send('no such order');
    try {
      const session = await fk.checkoutSessions.create({ funding_intent_id: order.fundingIntentId });
      const nonce = pageHeaders(res, apiBase);
      res.type('html').send(orderPage({ order, sessionToken: session.session_token, apiBase, nonce }));
    } catch (error) {
      next(error);
    }
  });

  app.get('/api/orders/:id', (req, res) => {
    const order = orders.get(req.params.id);
    return order ? res.json(order) : res.status(404).json({ error: 'not found' });
  });

  // "Continue on another device": the widget exchanges a handoff token here, with our secret key.
  app.post('/fundkit/resume', express.json(), createResumeHandler(fk).express);

  /**
   * Registers `<publicUrl>/webhooks/fundkit` for payment.completed (localhost is allowed with test
   * keys). Endpoints this example registered on earlier runs are deleted first: their secrets are
   * gone with the old process, so their deliveries could only fail.
   */
  async function registerWebhooks(publicUrl) {
    const url = publicUrl + WEBHOOK_PATH;
    for await (const old of fk.webhookEndpoints.list()) {
      if (old.description === ENDPOINT_DESCRIPTION && old.url === url) await fk.webhookEndpoints.del(old.id);
    }
    const endpoint = await fk.webhookEndpoints.create({ url, events: ['payment.completed'], description: ENDPOINT_DESCRIPTION });
    verify = fundkitWebhooks({ secret: endpoint.secret });
    return endpoint;
  }

  return { app, orders, fk, registerWebhooks };
}

/** Listens, registers the webhook endpoint, resolves with the URL and a close(). */
export async function startShop({ apiKey, apiBase, port = 3000, host, publicUrl, logger = console }) {
  const shop = createShop({ apiKey, apiBase, logger });
  const server = await new Promise((resolve, reject) => {
    // every interface by default: "localhost" may resolve to ::1 or 127.0.0.1 for the server delivering webhooks
    const done = (error) => (error ? reject(error) : resolve(s));
    const s = host ? shop.app.listen(port, host, done) : shop.app.listen(port, done);
  });
  const url = publicUrl ?? `http://${host && host !== '0.0.0.0' && host !== '::' ? host : 'localhost'}:${server.address().port}`;
  const endpoint = await shop.registerWebhooks(url);
  return { ...shop, url, endpoint, close: () => new Promise((resolve) => { server.closeAllConnections?.(); server.close(() => resolve()); }) };
}
