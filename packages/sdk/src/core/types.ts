import type { components, operations } from '../generated/openapi.js';

/** Every schema of the contract, by name: `Schema<'FundingIntent'>`. */
export type Schema<Name extends keyof components['schemas']> = components['schemas'][Name];

/** Every operationId of the contract. */
export type OperationId = keyof operations;

type JsonContent<T> = T extends { content: { 'application/json': infer B } } ? B : never;

/** The JSON request body of an operation: `RequestBody<'createFundingIntent'>`. */
export type RequestBody<Op extends OperationId> = JsonContent<NonNullable<operations[Op]['requestBody']>>;

/** The query parameters of an operation, without the pagination cursor the SDK manages. */
export type QueryParams<Op extends OperationId> = Omit<NonNullable<operations[Op]['parameters']['query']>, 'cursor'>;

type SuccessStatus = 200 | 201 | 202;
/** The JSON body of an operation's success response: `ResponseBody<'retrieveFundingIntent'>`. */
export type ResponseBody<Op extends OperationId> = JsonContent<operations[Op]['responses'][SuccessStatus & keyof operations[Op]['responses']]>;
