export { Fundkit, Fundkit as default } from './client.js';
export type { ClientOptions, RequestOptions, Environment, FetchLike, Logger } from './core/options.js';
export { BASE_URLS } from './core/config.js';
export { APIPromise, type WithResponse } from './core/api-promise.js';
export { Page, PagePromise, type ListEnvelope } from './core/pagination.js';
export {
  FundkitError, AuthenticationError, PermissionError, NotFoundError, ConflictError, QuoteExpiredError,
  IdempotencyError, ValidationError, RateLimitError, ApiError, ConnectionError, TimeoutError, UserAbortError,
  type ErrorCode, type ErrorDetail, type FundkitErrorFields,
} from './core/errors.js';
export type { RawClient } from './core/client.js';
export type { Schema, OperationId, RequestBody, ResponseBody, QueryParams } from './core/types.js';
export { createPkcePair, pkceChallenge, type PkcePair } from './lib/pkce.js';
export { createResumeHandler, type ResumeHandler, type ResumeHandlerOptions, type ResumeClient } from './lib/resume-handler.js';
export type { LogoContentType } from './resources/applications.js';
export type { paths, components, operations, webhooks } from './generated/openapi.js';

import type { components } from './generated/openapi.js';
type S = components['schemas'];
/** Resource types, straight from the contract. */
export type FundingIntent = S['FundingIntent'];
export type FundingOptions = S['FundingOptions'];
export type Quote = S['Quote'];
export type SimpleQuote = S['SimpleQuote'];
export type RouteExecution = S['RouteExecution'];
export type Payment = S['Payment'];
export type Refund = S['Refund'];
export type Settlement = S['Settlement'];
export type LedgerBalance = S['LedgerBalance'];
export type LedgerEntry = S['LedgerEntry'];
export type Asset = S['Asset'];
export type WebhookEndpoint = S['WebhookEndpoint'];
export type WebhookEndpointWithSecret = S['WebhookEndpointWithSecret'];
export type WebhookDelivery = S['WebhookDelivery'];
export type WebhookEvent = S['WebhookEvent'];
export type CheckoutSession = S['CheckoutSession'];
export type Handoff = S['Handoff'];
export type PublicFundingIntent = S['PublicFundingIntent'];
export type Application = S['Application'];
export type ApiKey = S['ApiKey'];
export type Account = S['Account'];
export type AccountSession = S['AccountSession'];
export type RequestLog = S['RequestLog'];
export type TestPayment = S['TestPayment'];
