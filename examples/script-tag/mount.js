// The widget's script comes from the API server: it serves the built IIFE at /checkout/fundkit-checkout.js.
const script = document.createElement('script');
script.src = FUNDKIT.apiBase + '/checkout/fundkit-checkout.js';
script.onload = () => {
  // the element reads its attributes when it is attached: set them first, then attach it
  const el = document.createElement('fundkit-checkout');
  el.setAttribute('base-url', FUNDKIT.apiBase);
  el.setAttribute('publishable-key', FUNDKIT.publishableKey);
  el.setAttribute('intent-id', new URLSearchParams(location.search).get('intent') || FUNDKIT.intentId);
  el.addEventListener('fundkit:status', (e) => { document.getElementById('log').textContent = 'status: ' + e.detail.status; });
  document.getElementById('checkout').appendChild(el);
};
document.head.appendChild(script);
