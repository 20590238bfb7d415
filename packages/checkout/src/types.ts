// Types only, generated from spec/openapi.yaml; the SDK runtime never enters the widget.
import type { components } from '../../sdk/src/generated/openapi';

type Schemas = components['schemas'];
export type PublicFundingIntent = Schemas['PublicFundingIntent'];
export type FundingOptions = Schemas['FundingOptions'];
export type FundingOption = Schemas['FundingOption'];
export type CheckoutSession = Schemas['CheckoutSession'];
export type Handoff = Schemas['Handoff'];
export type Quote = Schemas['Quote'];
export type FundingIntentStatus = Schemas['FundingIntentStatus'];

/** The checkout error envelope's body (`error`), as every checkout operation answers. */
export interface CheckoutErrorBody {
  type: string;
  code: string;
  message: string;
  request_id: string;
  retryable: boolean;
  param?: string;
  retry_after_seconds?: number;
  docs_url?: string;
}

export interface Appearance {
  theme?: 'light' | 'dark';
  /** any CSS colour */
  accentColor?: string;
  /** CSS length, e.g. "12px" */
  radius?: string;
  /** CSS font-family */
  fontFamily?: string;
}

export type Locale = 'en' | 'es';

export interface CheckoutOptions {
  /** a checkout session token (JWT) minted by your backend with POST /v1/checkout_sessions */
  sessionToken?: string;
  /** with intentId: read-only view of an intent by the application's publishable key */
  publishableKey?: string;
  intentId?: string;
  /** a handoff token (else read from `#fk_handoff=` in the URL), exchanged through `resume` */
  handoffToken?: string;
  /** calls your backend (the SDK's createResumeHandler) to exchange a handoff token for a session */
  resume?: (handoffToken: string) => Promise<CheckoutSession>;
  /** API origin; default https://api.fundkit.dev, or https://sandbox.api.fundkit.dev for test credentials */
  baseUrl?: string;
  /** the page the "continue on another device" link opens; default this page */
  handoffUrl?: string;
  appearance?: Appearance;
  locale?: Locale;
  onStatusChange?: (intent: PublicFundingIntent) => void;
  onComplete?: (intent: PublicFundingIntent) => void;
  onError?: (error: CheckoutError) => void;
}

/** What the widget reports: the API's envelope when there was one. */
export class CheckoutError extends Error {
  constructor(
    message: string,
    readonly code: string,
    readonly status: number,
    readonly retryable: boolean,
    readonly requestId?: string,
  ) {
    super(message);
    this.name = 'CheckoutError';
  }
}

export type CheckoutEvent = 'ready' | 'status' | 'complete' | 'error';
