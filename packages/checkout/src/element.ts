import { mountInto, type CheckoutHandle } from './mount.js';
import type { CheckoutOptions, Locale } from './types.js';
import type { WalletLoader } from './wallet-loader.js';

/**
 * `<fundkit-checkout session-token="…" base-url="…">` (or publishable-key + intent-id). Callbacks
 * arrive as DOM events: fundkit:status, fundkit:complete, fundkit:error (detail = payload).
 */
export function defineElement(loadWallet: WalletLoader, name = 'fundkit-checkout'): void {
  if (typeof customElements === 'undefined' || customElements.get(name)) return;
  customElements.define(name, class extends HTMLElement {
    private handle: CheckoutHandle | null = null;

    connectedCallback(): void {
      const attr = (n: string) => this.getAttribute(n) ?? undefined;
      const options: CheckoutOptions = {
        sessionToken: attr('session-token'), publishableKey: attr('publishable-key'), intentId: attr('intent-id'),
        baseUrl: attr('base-url'), handoffUrl: attr('handoff-url'), locale: attr('locale') as Locale | undefined,
        appearance: { theme: attr('theme') as 'light' | 'dark' | undefined, accentColor: attr('accent-color'), radius: attr('radius'), fontFamily: attr('font-family') },
      };
      this.handle = mountInto(this.shadowRoot ?? this.attachShadow({ mode: 'open' }), options, loadWallet);
      for (const event of ['ready', 'status', 'complete', 'error'] as const) {
        this.handle.on(event, (detail) => this.dispatchEvent(new CustomEvent(`fundkit:${event}`, { detail, bubbles: true, composed: true })));
      }
    }

    disconnectedCallback(): void {
      this.handle?.unmount();
      this.handle = null;
    }
  });
}
