import { randomBytes } from 'node:crypto';

/**
 * The security headers of a page: a CSP that allows only what the page loads (its own origin, the
 * API's widget script, logos and calls, the hosted Horizons the wallet submits to, one inline
 * script by nonce; styles inline, as the widget injects its own), never framed, nosniff, and no
 * referrer. Returns the nonce for the page's inline script.
 */
export function pageHeaders(res, apiBase) {
  const nonce = randomBytes(16).toString('base64');
  const api = new URL(apiBase).origin;
  res.set({
    'Content-Security-Policy': [
      "default-src 'none'", "base-uri 'none'", "object-src 'none'", "form-action 'self'", "frame-ancestors 'none'",
      `script-src 'self' ${api} 'nonce-${nonce}'`, "style-src 'self' 'unsafe-inline'", `img-src 'self' data: ${api}`,
      `connect-src 'self' ${api} https://horizon-testnet.stellar.org https://horizon.stellar.org`,
    ].join('; '),
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'X-Frame-Options': 'DENY',
  });
  return nonce;
}

/** HTML of the shop. Plain strings: the example is about the integration, not a template engine. */

const style = `<style>body{font-family:system-ui,sans-serif;background:#f6f7f9;margin:0;color:#1b1f24}
main{max-width:460px;margin:40px auto;padding:0 16px}.card{background:#fff;border-radius:12px;padding:20px;box-shadow:0 1px 3px #0002;margin-bottom:16px}
button{font:inherit;background:#0a7cff;color:#fff;border:0;border-radius:8px;padding:10px 18px;cursor:pointer}
.status{font-weight:600}.paid{color:#0a8a3a}</style>`;

function layout(title, body) {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${title}</title>${style}</head><body><main>${body}</main></body></html>`;
}

export function shopPage() {
  return layout('Fundkit demo shop', `<h1>Demo shop</h1>
<div class="card"><h2>Fundkit T-shirt</h2><p>25.00 USDC, paid on Stellar (sandbox).</p>
<form method="post" action="/orders"><button type="submit">Buy</button></form></div>`);
}

/** JSON inside a <script> cannot close the tag. */
const safe = (value) => JSON.stringify(value).replace(/</g, '\\u003c');

/**
 * The order page: the widget from the reference server's script tag, mounted with a checkout
 * session token, and the order status as the BACKEND sees it (polled): the widget showing "paid"
 * is the payer's view; the order is paid only once our webhook handler verified the event.
 */
export function orderPage({ order, sessionToken, apiBase, nonce }) {
  return layout(`Order ${order.id}`, `<h1>Order ${order.id}</h1>
<div class="card">${order.item}: ${order.amount} ${order.asset}<br>Order status: <span class="status" id="order-status">${order.status}</span>
<p id="sandbox-hint"><small>Sandbox: pay it from a terminal with <code>pnpm fundkit pay ${order.fundingIntentId} --amount ${order.amount}</code></small></p></div>
<div id="pay"></div>
<script src="${apiBase}/checkout/fundkit-checkout.js"></script>
<script nonce="${nonce}">
  FundkitCheckout.mount('#pay', {
    sessionToken: ${safe(sessionToken)},
    baseUrl: ${safe(apiBase)},
    resume: (handoffToken) => fetch('/fundkit/resume', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ handoff_token: handoffToken }) })
      .then((r) => (r.ok ? r.json() : Promise.reject(new Error('this link has expired or was already used')))),
  });
  const label = document.getElementById('order-status');
  const poll = async () => {
    const order = await (await fetch('/api/orders/${order.id}')).json();
    label.textContent = order.status === 'paid' ? 'paid ✓ (webhook verified)' : order.status;
    label.className = 'status ' + order.status;
    if (order.status === 'paid') document.getElementById('sandbox-hint').hidden = true;
    else setTimeout(poll, 1000);
  };
  poll();
</script>`);
}
