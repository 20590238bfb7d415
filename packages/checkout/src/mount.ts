import { h, render } from 'preact';
import { CheckoutApp } from './components/checkout-app.js';
import { takeHandoffFromUrl } from './credentials.js';
import { pickLocale, translator } from './i18n.js';
import { CSS, themeVars } from './styles.js';
import type { CheckoutEvent, CheckoutOptions } from './types.js';
import type { WalletLoader } from './wallet-loader.js';

export interface CheckoutHandle {
  unmount(): void;
  /** subscribe to 'ready' | 'status' | 'complete' | 'error'; returns an unsubscribe */
  on(event: CheckoutEvent, listener: (payload: unknown) => void): () => void;
}

/** Renders into a shadow root (the host page's CSS cannot reach in, ours cannot leak out). */
export function mountInto(root: ShadowRoot, options: CheckoutOptions, loadWallet: WalletLoader): CheckoutHandle {
  // first of all: the handoff token leaves the address bar before any request or render
  const fragmentToken = takeHandoffFromUrl();
  const listeners = new Map<CheckoutEvent, Set<(payload: unknown) => void>>();
  const emit = (event: CheckoutEvent, payload: unknown) => listeners.get(event)?.forEach((l) => l(payload));
  const style = document.createElement('style');
  style.textContent = CSS;
  const container = document.createElement('div');
  container.className = 'fk';
  container.setAttribute('style', themeVars(options.appearance));
  container.setAttribute('lang', pickLocale(options.locale));
  root.replaceChildren(style, container);
  const t = translator(pickLocale(options.locale));
  render(h(CheckoutApp, { options, fragmentToken, emit, loadWallet, t }), container);
  return {
    unmount() {
      render(null, container);
      root.replaceChildren();
      listeners.clear();
    },
    on(event, listener) {
      if (!listeners.has(event)) listeners.set(event, new Set());
      listeners.get(event)!.add(listener);
      return () => listeners.get(event)?.delete(listener);
    },
  };
}

/** mount(target, options): target is an element or a CSS selector; the widget lives in a child host. */
export function mountWith(loadWallet: WalletLoader) {
  return (target: Element | string, options: CheckoutOptions): CheckoutHandle => {
    const parent = typeof target === 'string' ? document.querySelector(target) : target;
    if (!parent) throw new Error(`FundkitCheckout.mount: no element matches ${String(target)}`);
    const host = document.createElement('div');
    host.setAttribute('data-fundkit-checkout', '');
    parent.appendChild(host);
    const handle = mountInto(host.attachShadow({ mode: 'open' }), options, loadWallet);
    return { ...handle, unmount: () => (handle.unmount(), host.remove()) };
  };
}
