// The lazy wallet chunk of the IIFE build: registers itself for scriptWalletLoader.
import { payWithFreighter } from '../wallet.js';

(globalThis as { FundkitCheckoutWallet?: unknown }).FundkitCheckoutWallet = { payWithFreighter };
