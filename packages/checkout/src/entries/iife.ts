// <script src=".../fundkit-checkout.js">: window.FundkitCheckout.mount(...) and <fundkit-checkout>.
import { defineElement } from '../element.js';
import { mountWith } from '../mount.js';
import { scriptWalletLoader } from '../wallet-loader.js';

// the wallet chunk is a sibling file; resolve it now, while currentScript still names us
const self = (document.currentScript as HTMLScriptElement | null)?.src ?? '';
const walletUrl = self ? new URL('fundkit-checkout-wallet.js', self).href : 'fundkit-checkout-wallet.js';
const loadWallet = scriptWalletLoader(walletUrl);

export const mount = mountWith(loadWallet);
export { CheckoutError } from '../types.js';
defineElement(loadWallet);
