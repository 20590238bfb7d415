import { mountInto, type CheckoutHandle } from './mount.js';
import type { CheckoutOptions, Locale } from './types.js';
import type { WalletLoader } from './wallet-loader.js';

const ATTRIBUTES = ['session-token', 'publishable-key', 'intent-id', 'base-url', 'handoff-url', 'locale', 'theme', 'accent-color', 'radius', 'font-family'];

/**
 * `<fundkit-checkout session-token="…" base-url="…">` (or publishable-key + intent-id). Callbacks
 * arrive as DOM events: fundkit:status, fundkit:complete, fundkit:error (detail = payload).
 * Changing an attribute after the element is attached remounts it with the new options, so a
 * script may set the attributes in any order (e.g. once it has fetched a session token).
 */
export function defineElement(loadWallet: WalletLoader, name = 'fundkit-checkout'): void {
  if (typeof customElements === 'undefined' || customElements.get(name)) return;
  customElements.define(name, class extends HTMLElement {
    static observedAttributes = ATTRIBUTES;
    private handle: CheckoutHandle | null = null;
    private remount: ReturnType<typeof setTimeout> | null = null;

    connectedCallback(): void {
      this.mount();
    }

    attributeChangedCallback(_name: string, before: string | null, after: string | null): void {
      if (!this.isConnected || !this.handle || before === after) return;
      // several attributes are usually set together: remount once, after the last of them
      if (this.remount) clearTimeout(this.remount);
      this.remount = setTimeout(() => {
        this.remount = null;
        this.unmount();
        if (this.isConnected) this.mount();
      }, 0);
    }

    disconnectedCallback(): void {
      if (this.remount) clearTimeout(this.remount);
      this.unmount();
    }

    private options(): CheckoutOptions {
      const attr = (n: string) => this.getAttribute(n) ?? undefined;
      return {
        sessionToken: attr('session-token'), publishableKey: attr('publishable-key'), intentId: attr('intent-id'),
        baseUrl: attr('base-url'), handoffUrl: attr('handoff-url'), locale: attr('locale') as Locale | undefined,
        appearance: { theme: attr('theme') as 'light' | 'dark' | undefined, accentColor: attr('accent-color'), radius: attr('radius'), fontFamily: attr('font-family') },
      };
    }

    private mount(): void {
      this.handle = mountInto(this.shadowRoot ?? this.attachShadow({ mode: 'open' }), this.options(), loadWallet);
      for (const event of ['ready', 'status', 'complete', 'error'] as const) {
        this.handle.on(event, (detail) => this.dispatchEvent(new CustomEvent(`fundkit:${event}`, { detail, bubbles: true, composed: true })));
      }
    }

    private unmount(): void {
      this.handle?.unmount();
      this.handle = null;
    }
  });
}
