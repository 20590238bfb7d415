import type { payWithFreighter } from './wallet.js';

/** What the lazy chunk provides; the entry decides how to fetch it (dynamic import or a script). */
export interface WalletModule {
  payWithFreighter: typeof payWithFreighter;
}

export type WalletLoader = () => Promise<WalletModule>;

/** The IIFE build: a sibling script that sets window.FundkitCheckoutWallet. */
export function scriptWalletLoader(scriptUrl: string): WalletLoader {
  let pending: Promise<WalletModule> | null = null;
  return () => {
    const existing = (globalThis as { FundkitCheckoutWallet?: WalletModule }).FundkitCheckoutWallet;
    if (existing) return Promise.resolve(existing);
    pending ??= new Promise<WalletModule>((resolve, reject) => {
      const script = document.createElement('script');
      script.src = scriptUrl;
      script.async = true;
      script.onload = () => {
        const loaded = (globalThis as { FundkitCheckoutWallet?: WalletModule }).FundkitCheckoutWallet;
        if (loaded) resolve(loaded);
        else reject(new Error('the wallet script did not load'));
      };
      script.onerror = () => {
        pending = null;
        reject(new Error('the wallet script could not be fetched'));
      };
      document.head.appendChild(script);
    });
    return pending;
  };
}
