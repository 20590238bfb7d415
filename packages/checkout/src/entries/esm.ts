// Bundlers: the wallet chunk stays a dynamic import, split by the merchant's bundler.
import { defineElement } from '../element.js';
import { mountWith } from '../mount.js';
import type { WalletLoader } from '../wallet-loader.js';

const loadWallet: WalletLoader = () => import('../wallet.js');

export const mount = mountWith(loadWallet);
export const defineCheckoutElement = (name?: string) => defineElement(loadWallet, name);
export { CheckoutError } from '../types.js';
export type { Appearance, CheckoutEvent, CheckoutOptions, Locale, PublicFundingIntent, CheckoutSession } from '../types.js';
export type { CheckoutHandle } from '../mount.js';
