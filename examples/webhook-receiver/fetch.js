import { createServer } from 'node:http';
import { Readable } from 'node:stream';
import { createWebhookHandler, WebhookVerificationError } from '@fundkit/webhooks';
import { webhookSecret } from './dev-endpoint.js';

const port = Number(process.env.PORT ?? 3002);
const verify = createWebhookHandler({ secret: await webhookSecret(`http://localhost:${port}/webhooks`) });

/** A Fetch handler, as in Next.js route handlers, Hono, Bun, Deno or Workers: Request in, Response out. */
export async function POST(request) {
  try {
    const event = await verify(request);
    console.log(`${event.type} ${event.id}`);
    return Response.json({ received: true });
  } catch (error) {
    if (error instanceof WebhookVerificationError && !error.isConfigurationError) {
      return Response.json({ error: { code: error.reason, message: error.message } }, { status: 400 });
    }
    throw error;
  }
}

// Node has no Fetch server: turn its request into a Request and the Response back.
createServer(async (req, res) => {
  if (req.method !== 'POST' || req.url !== '/webhooks') return void res.writeHead(404).end();
  const request = new Request(`http://localhost${req.url}`, { method: 'POST', headers: req.headers, body: Readable.toWeb(req), duplex: 'half' });
  const response = await POST(request).catch(() => new Response('error', { status: 500 }));
  res.writeHead(response.status, Object.fromEntries(response.headers)).end(Buffer.from(await response.arrayBuffer()));
}).listen(port, () => console.log(`Fetch receiver on http://localhost:${port}/webhooks`));
