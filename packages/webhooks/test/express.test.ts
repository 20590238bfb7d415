import express, { type ErrorRequestHandler, type RequestHandler } from 'express';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { fundkitWebhooks } from '../src/express.js';
import { signWebhook, WebhookVerificationError, type SignedWebhook } from '../src/index.js';
import { paymentCompleted, PREVIOUS_SECRET, PRIMARY_SECRET } from './helpers/fixtures.js';
import { listen } from './helpers/server.js';

const verified: RequestHandler = (req, res) => {
  res.json({ received: req.fundkitEvent?.id, type: req.fundkitEvent?.type });
};

const reportError: ErrorRequestHandler = (error: unknown, _req, res, _next) => {
  const reason = error instanceof WebhookVerificationError ? error.reason : 'unexpected';
  res.status(500).json({ reason });
};

function buildApp(): express.Express {
  const app = express();
  const middleware = fundkitWebhooks({ secret: PRIMARY_SECRET });
  app.post('/stream', middleware, verified);
  app.post('/raw', express.raw({ type: 'application/json' }), middleware, verified);
  app.post('/text', express.text({ type: 'application/json' }), middleware, verified);
  app.post('/parsed', express.json(), middleware, verified);
  app.post('/rotating', fundkitWebhooks({ secrets: ['whsec_new', PREVIOUS_SECRET] }), verified);
  app.post('/strict', fundkitWebhooks({ secret: PRIMARY_SECRET, toleranceSeconds: 5 }), verified);
  app.use(reportError);
  return app;
}

let server: Awaited<ReturnType<typeof listen>>;
beforeAll(async () => {
  server = await listen(buildApp());
});
afterAll(() => server.close());

function post(path: string, delivery: SignedWebhook): Promise<Response> {
  return fetch(`${server.url}${path}`, { method: 'POST', headers: delivery.headers, body: delivery.body });
}

describe('fundkitWebhooks() on a real Express app', () => {
  it('is an Express RequestHandler', () => {
    expectTypeOf(fundkitWebhooks({ secret: 'whsec_x' })).toExtend<RequestHandler>();
  });

  it.each(['/stream', '/raw', '/text'])('verifies and sets req.fundkitEvent (%s)', async (path) => {
    const response = await post(path, await signWebhook(paymentCompleted, PRIMARY_SECRET));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ received: paymentCompleted.id, type: 'payment.completed' });
  });

  it('answers 400 with a JSON error for a tampered body', async () => {
    const delivery = await signWebhook(paymentCompleted, PRIMARY_SECRET);
    const response = await post('/stream', { ...delivery, body: delivery.body.replace('12.5', '99') });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: { type: 'webhook_verification_error', code: 'signature_mismatch', message: expect.any(String) },
    });
  });

  it('answers 400 when the signature header is missing', async () => {
    const response = await fetch(`${server.url}/raw`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { code: 'missing_signature' } });
  });

  it('answers 400 for an old delivery beyond toleranceSeconds', async () => {
    const delivery = await signWebhook(paymentCompleted, PRIMARY_SECRET, { timestamp: new Date(Date.now() - 60_000) });
    const response = await post('/strict', delivery);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { code: 'timestamp_outside_tolerance' } });
  });

  it('accepts a delivery signed with a secret being rotated out', async () => {
    const response = await post('/rotating', await signWebhook(paymentCompleted, PREVIOUS_SECRET));
    expect(response.status).toBe(200);
  });

  it('passes an already parsed body to next(error) as body_not_raw (a 500, not a 400)', async () => {
    const response = await post('/parsed', await signWebhook(paymentCompleted, PRIMARY_SECRET));
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({ reason: 'body_not_raw' });
  });

  it('refuses to build without a secret, at startup', () => {
    expect(() => fundkitWebhooks({ secret: process.env.FUNDKIT_UNSET_SECRET_FOR_TEST })).toThrow(
      expect.objectContaining({ reason: 'no_secret' }),
    );
  });
});
