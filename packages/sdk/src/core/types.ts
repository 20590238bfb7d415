import type { components, operations, webhooks } from '../generated/openapi.js';

/** Every schema of the contract, by name: `Schema<'FundingIntent'>`. */
export type Schema<Name extends keyof components['schemas']> = components['schemas'][Name];

type WebhookOperation = { [K in keyof webhooks]: NonNullable<webhooks[K]['post']> }[keyof webhooks];

/** Every callable operationId of the contract (the `webhooks:` section is sent by the API, not called). */
export type OperationId = { [K in keyof operations]: operations[K] extends WebhookOperation ? never : K }[keyof operations];

type JsonContent<T> = T extends { content: { 'application/json': infer B } } ? B : never;

/** The JSON request body of an operation: `RequestBody<'createFundingIntent'>`. */
export type RequestBody<Op extends keyof operations> = JsonContent<NonNullable<operations[Op]['requestBody']>>;

/** The query parameters of an operation, without the pagination cursor the SDK manages. */
export type QueryParams<Op extends keyof operations> = Omit<NonNullable<operations[Op]['parameters']['query']>, 'cursor'>;

type SuccessStatus = 200 | 201 | 202;
/** The JSON body of an operation's success response: `ResponseBody<'retrieveFundingIntent'>`. */
export type ResponseBody<Op extends keyof operations> = JsonContent<operations[Op]['responses'][SuccessStatus & keyof operations[Op]['responses']]>;
