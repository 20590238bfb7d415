import { fundkitWebhooks } from '@fundkit/webhooks/express';
import express from 'express';
import { webhookSecret } from './dev-endpoint.js';

const port = Number(process.env.PORT ?? 3002);
const secret = await webhookSecret(`http://localhost:${port}/webhooks`);

const app = express();
// fundkitWebhooks reads the raw body itself: mount it before any express.json()
app.post('/webhooks', fundkitWebhooks({ secret }), (req, res) => {
  const event = req.fundkitEvent; // verified: signature, timestamp tolerance, JSON shape
  console.log(`${event.type} ${event.id}`, event.type.startsWith('payment.') ? `${event.data.amount_decimal} ${event.data.currency} ${event.data.status}` : '');
  res.json({ received: true });
});
app.listen(port, () => console.log(`Express receiver on http://localhost:${port}/webhooks`));
