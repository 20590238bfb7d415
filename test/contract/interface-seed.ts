/**
 * Everything /work/shared/INTERFACE.md states, transcribed BY HAND as data.
 *
 * Why by hand: the point of the seed-coverage test is an independent second reading of the
 * interface document. Generating this file from the spec (or the spec from it) would make the
 * check circular. Every block names the INTERFACE.md section it comes from (`§ …`).
 *
 * Nullability: INTERFACE.md marks some fields "or null". Where it does, the spec must allow null.
 * Where a resource states every field's nullability (Refund: "All refund fields are required …",
 * the List envelope), the other fields must NOT be nullable (`strictNull`). Elsewhere INTERFACE.md
 * is silent ("Which of these fields are required or may be null: not shown"), so null is allowed.
 */

export type JsonType = 'string' | 'integer' | 'number' | 'boolean' | 'object' | 'array';

/** A field of a resource or body; `path` walks nested objects (`a.b`) and arrays (`a[]`). */
export interface FieldSeed {
  path: string;
  type: JsonType;
  /** INTERFACE.md says "or null". */
  nullable?: boolean;
  /** INTERFACE.md says "value X appears": X must be in the spec's enum. */
  appears?: string[];
  /** INTERFACE.md states the full set: the spec's enum must equal it. */
  values?: string[];
  /** INTERFACE.md says "<X> object": the spec schema must be (or $ref) this component. */
  ref?: string;
  /** "Timestamps are ISO 8601" / "string, date-time". */
  format?: 'date-time';
  /** A stated form (prefix, `<namespace>:<code>`): the spec's pattern must accept/reject these. */
  pattern?: { accepts: string[]; rejects: string[] };
  /** Request bodies: "Required" column. */
  required?: boolean;
  minLength?: number;
  maxLength?: number;
}

export interface ResourceSeed {
  /** The INTERFACE.md heading. */
  section: string;
  /** The spec component schema the resource maps to. */
  schema: string;
  /** The `object` const INTERFACE.md names ("`object` = …"). */
  objectConst?: string;
  /** Every field's nullability is stated, so unstated null is a contradiction. */
  strictNull?: boolean;
  /** "All … fields are required in a response; no other fields are present." */
  closed?: boolean;
  fields: FieldSeed[];
}

// Small constructors so the tables below read like the INTERFACE.md tables.
const s = (path: string, more: Partial<FieldSeed> = {}): FieldSeed => ({ path, type: 'string', ...more });
const ts = (path: string, more: Partial<FieldSeed> = {}): FieldSeed => s(path, { format: 'date-time', ...more });
const int = (path: string): FieldSeed => ({ path, type: 'integer' });
const num = (path: string): FieldSeed => ({ path, type: 'number' });
const bool = (path: string, more: Partial<FieldSeed> = {}): FieldSeed => ({ path, type: 'boolean', ...more });
const obj = (path: string, more: Partial<FieldSeed> = {}): FieldSeed => ({ path, type: 'object', ...more });
const arr = (path: string, more: Partial<FieldSeed> = {}): FieldSeed => ({ path, type: 'array', ...more });
/** "failure | object: code, message" (code and message are strings, § Funding intent). */
const failure = (nullable = false): FieldSeed[] => [obj('failure', { nullable }), s('failure.code'), s('failure.message')];

// § States and transitions › Funding intent status
export const FUNDING_INTENT_STATUSES = [
  'CREATED', 'AWAITING_PAYMENT', 'PARTIALLY_FUNDED', 'PAYMENT_DETECTED', 'PAYMENT_CONFIRMED', 'ROUTING',
  'SETTLING', 'SETTLED', 'CREDITED', 'FAILED', 'REFUND_PENDING', 'REFUNDED', 'EXPIRED', 'CANCELLED',
];
// § Resources › Refund (reason) and § POST …/refunds request body
export const REFUND_REASONS = [
  'UNDERPAYMENT', 'OVERPAYMENT', 'WRONG_ASSET', 'EXPIRED_INTENT', 'DUPLICATE_PAYMENT', 'SETTLEMENT_FAILED',
  'ROUTE_REMAINDER', 'ROUTE_SURPLUS', 'MANUAL',
];
// § States and transitions › Refund status
export const REFUND_STATUSES = ['PENDING', 'PROCESSING', 'COMPLETED', 'FAILED'];

// § Resources and their fields
export const RESOURCES: ResourceSeed[] = [
  {
    section: 'Resources › Funding intent',
    schema: 'FundingIntent',
    objectConst: 'funding_intent',
    fields: [
      s('id'), s('object'), s('application_id'),
      obj('requirement'), s('requirement.amount'), s('requirement.asset'),
      obj('destination'), s('destination.network'), s('destination.asset'), s('destination.address'),
      obj('source'), s('source.network'), s('source.asset'), s('source.amount'),
      obj('quote', { ref: 'Quote' }),
      obj('route'), s('route.type', { appears: ['DIRECT_STELLAR'] }), s('route.provider'),
      s('status', { values: FUNDING_INTENT_STATUSES }),
      s('received_amount'),
      obj('deposit_account', { ref: 'DepositAccount' }),
      s('reference'),
      obj('metadata'),
      obj('protocol'), s('protocol.intent_id'), s('protocol.contract_id'),
      s('protocol.status', { appears: ['PENDING'] }), s('protocol.transaction_hash'),
      obj('funding_instructions', { ref: 'FundingInstructions' }),
      obj('payment', { ref: 'Payment' }),
      obj('settlement', { ref: 'Settlement' }),
      ...failure(),
      s('hosted_funding_url'),
      ts('expires_at'), ts('created_at'), ts('updated_at'),
    ],
  },
  {
    section: 'Resources › Quote',
    schema: 'Quote',
    objectConst: 'quote',
    fields: [
      s('id'), s('object'), s('funding_intent_id'), s('application_id'),
      s('type', { appears: ['EXACT_INPUT'] }),
      s('status', { appears: ['ACTIVE'] }),
      s('stellar_network', { appears: ['testnet'] }),
      obj('source'), s('source.network'), s('source.asset'), s('source.amount'), s('source.expected_amount'),
      obj('destination'), s('destination.network'), s('destination.asset'), s('destination.address'),
      s('destination.amount'), s('destination.minimum_amount'),
      obj('route'), s('route.type', { appears: ['DIRECT_STELLAR'] }), s('route.provider'),
      arr('route.steps'), obj('route.steps[]'),
      s('route.steps[].type'), s('route.steps[].provider'), s('route.steps[].source_asset'),
      s('route.steps[].destination_asset'),
      int('route.estimated_duration_seconds'), num('route.confidence'), int('route.price_impact_bps'),
      s('route.score'),
      obj('fees'), arr('fees.items'), obj('fees.items[]'),
      s('fees.items[].type', { appears: ['NETWORK'] }), s('fees.items[].asset'), s('fees.items[].amount'),
      s('fees.total'),
      s('exchange_rate'),
      int('slippage_bps'),
      obj('execution', { ref: 'RouteExecution' }),
      ...failure(),
      ts('expires_at'), ts('lock_expires_at'), ts('created_at'), ts('updated_at'),
    ],
  },
  {
    section: 'Resources › Route execution',
    schema: 'RouteExecution',
    objectConst: 'route_execution',
    fields: [
      s('id'), s('object'), s('quote_id'), s('funding_intent_id'), s('provider'), s('provider_execution_id'),
      s('route_type', { appears: ['DIRECT_STELLAR'] }),
      s('status', { appears: ['PENDING'] }),
      s('phase', { appears: ['CREATED'] }),
      arr('transaction_hashes'), s('transaction_hashes[]'),
      ...failure(),
      ts('started_at'), ts('completed_at'),
    ],
  },
  {
    section: 'Resources › Deposit account',
    schema: 'DepositAccount',
    objectConst: 'deposit_account',
    fields: [
      s('id'), s('object'), s('address'), s('asset'),
      s('network', { appears: ['stellar'] }),
      s('status', { appears: ['PROVISIONING'] }),
      ts('created_at'), ts('activated_at'), ts('retired_at'),
    ],
  },
  {
    section: 'Resources › Funding instructions',
    schema: 'FundingInstructions',
    fields: [
      s('network', { appears: ['stellar'] }),
      s('stellar_network', { appears: ['testnet'] }),
      obj('deposit'), s('deposit.address'), s('deposit.type', { appears: ['account'] }),
      obj('asset'), s('asset.id'), s('asset.symbol'), s('asset.stellar_asset'), s('asset.code'),
      s('asset.issuer'), s('asset.contract'), int('asset.decimals'),
      s('amount'), s('required_amount'), s('received_amount'),
      ts('expires_at'),
    ],
  },
  {
    section: 'Resources › Payment',
    schema: 'Payment',
    objectConst: 'payment',
    fields: [
      s('id'), s('object'), s('funding_intent_id'), s('network'), s('asset'), s('stellar_asset'), s('amount'),
      s('payer_address'), s('destination_address'), s('transaction_hash'), s('operation_id'),
      s('stellar_network', { appears: ['testnet'] }),
      int('ledger'),
      obj('memo'), s('memo.type', { appears: ['text'] }), s('memo.value'),
      s('status', { appears: ['DETECTED'] }),
      ...failure(),
      ts('detected_at'), ts('confirmed_at'),
    ],
  },
  {
    section: 'Resources › Settlement',
    schema: 'Settlement',
    objectConst: 'settlement',
    fields: [
      s('id'), s('object'), s('funding_intent_id'), s('application_id'), s('payment_id'),
      s('network', { appears: ['stellar'] }),
      s('stellar_network', { appears: ['testnet'] }),
      s('route', { appears: ['direct'] }),
      // "object: asset, amount" — amounts and identifiers are strings unless stated (§ Resources).
      obj('source'), s('source.asset'), s('source.amount'),
      obj('destination'), s('destination.network'), s('destination.asset'), s('destination.address'),
      s('destination.amount'),
      s('transaction_hash'), s('transfer_transaction_hash'),
      obj('protocol'), s('protocol.settlement_id'), s('protocol.contract_id'),
      s('protocol.create_transaction_hash'), s('protocol.confirm_transaction_hash'),
      s('status', { appears: ['PENDING'] }),
      s('reconciliation_status', { appears: ['UNRECONCILED'] }),
      ...failure(),
      ts('submitted_at'), ts('confirmed_at'), ts('created_at'), ts('updated_at'),
    ],
  },
  {
    section: 'Resources › Refund',
    schema: 'Refund',
    objectConst: 'refund',
    strictNull: true,
    closed: true,
    fields: [
      s('id'), s('object'), s('funding_intent_id'), s('payment_id'), s('application_id'),
      s('asset'), s('amount'),
      obj('destination'), s('destination.network'), s('destination.asset'),
      s('destination.address', { nullable: true }),
      obj('destination.memo', { nullable: true, ref: 'Memo' }),
      s('reason', { values: REFUND_REASONS }),
      s('status', { values: REFUND_STATUSES }),
      s('transaction_hash', { nullable: true }),
      ...failure(true),
      ts('created_at'),
      ts('completed_at', { nullable: true }),
    ],
  },
  {
    section: 'Resources › Funding option',
    schema: 'FundingOption',
    fields: [
      s('id'),
      obj('source'), s('source.rail'), s('source.asset'),
      obj('pay_amount'), s('pay_amount.amount'),
      s('pay_amount.asset', { pattern: { accepts: ['stellar:USDC'], rejects: ['USDC'] } }),
      obj('receive_amount_min'), s('receive_amount_min.amount'),
      s('receive_amount_min.asset', { pattern: { accepts: ['stellar:USDC'], rejects: ['USDC'] } }),
      int('estimated_duration_seconds'),
      ts('expires_at'),
      arr('fees'), obj('fees[]'),
    ],
  },
  {
    section: 'Resources › Checkout session',
    schema: 'CheckoutSession',
    fields: [
      s('id', { pattern: { accepts: ['cst_01JD5ZJ3K4'], rejects: ['fi_01JD5ZJ3K4'] } }),
      s('session_token'), s('funding_intent_id'), ts('expires_at'),
    ],
  },
  {
    section: 'Resources › Simple quote',
    schema: 'SimpleQuote',
    fields: [s('quote_id'), num('from_amount'), num('to_amount'), num('rate'), num('fee'), ts('expires_at')],
  },
  {
    section: 'Resources › List envelope (the page of GET /v1/funding-intents)',
    schema: 'FundingIntentList',
    objectConst: 'list',
    strictNull: true,
    fields: [s('object'), arr('data'), s('next_cursor', { nullable: true })],
  },
];

// § Resources › Memo object (refund destination)
export const MEMO_RULES = [
  { type: 'text', minLength: 1 },
  { type: 'id', pattern: '^\\d{1,20}$' },
  { type: 'hash', pattern: '^[0-9a-fA-F]{64}$' },
] as const;

/** An operation, by exact path, or (where INTERFACE.md gives no path) by how its path ends. */
export type OpRef = { method: string; path: string } | { method: string; pathEndsWith: string };

// § Endpoints (the table; spellings exactly as written, hyphens and underscores alike)
export const OPS = {
  listFundingIntents: { method: 'get', path: '/v1/funding-intents' },
  createRefund: { method: 'post', path: '/v1/funding-intents/{id}/payments/{paymentId}/refunds' },
  listOptions: { method: 'get', path: '/v1/funding_intents/{id}/options' },
  handoff: { method: 'post', path: '/v1/checkout_sessions/{id}/handoff' },
  resume: { method: 'post', path: '/v1/checkout_sessions/resume' },
  simpleQuote: { method: 'post', path: '/v1/quotes' },
  createWebhook: { method: 'post', path: '/v1/webhooks' },
  // § Endpoints › Accepting a quote: "a POST `accept` operation … Path and payload: not shown".
  acceptQuote: { method: 'post', pathEndsWith: '/accept' },
} satisfies Record<string, OpRef>;
export type OpName = keyof typeof OPS;

export const ENDPOINT_TABLE: OpName[] = [
  'listFundingIntents', 'createRefund', 'listOptions', 'handoff', 'resume', 'simpleQuote', 'createWebhook',
];

// § Endpoints › Other operations / § Authentication: named paths.
export const NAMED_PATHS = ['/v1/auth/sign-in'];

// § What the service does: the resource groups; § Other operations: they exist by name.
export const RESOURCE_GROUPS: Record<string, string> = {
  'funding intents': 'funding[-_]intents',
  quotes: 'quotes',
  checkout: 'checkout',
  payments: 'payments',
  settlements: 'settlements',
  refunds: 'refunds',
  ledger: 'ledger',
  webhooks: 'webhooks',
  assets: 'assets',
  applications: 'applications',
  'request logs': 'request[-_]logs',
  'public checkout view': 'public',
};

export interface ParamSeed {
  op: OpName;
  name: string;
  in: 'path' | 'query' | 'header';
  type: JsonType;
  required: boolean;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  default?: number;
  values?: string[];
}

export const PARAMS: ParamSeed[] = [
  // § GET /v1/funding-intents › Query parameters (all optional); § Limits › Page size
  { op: 'listFundingIntents', name: 'limit', in: 'query', type: 'integer', required: false, minimum: 1, maximum: 100, default: 50 },
  // "1 to 64 and 1 to 255; which … not shown" — DESIGN.md §2 decided: reference 1–64, cursor 1–255.
  { op: 'listFundingIntents', name: 'cursor', in: 'query', type: 'string', required: false, minLength: 1, maxLength: 255 },
  { op: 'listFundingIntents', name: 'reference', in: 'query', type: 'string', required: false, minLength: 1, maxLength: 64 },
  { op: 'listFundingIntents', name: 'status', in: 'query', type: 'string', required: false, values: FUNDING_INTENT_STATUSES },
  // § POST …/refunds › Path parameters; § Limits › Path parameter id, paymentId length
  { op: 'createRefund', name: 'id', in: 'path', type: 'string', required: true, minLength: 1, maxLength: 64 },
  { op: 'createRefund', name: 'paymentId', in: 'path', type: 'string', required: true, minLength: 1, maxLength: 64 },
  // § POST …/refunds › Header; § Limits › Idempotency-Key 1 to 255 on refunds
  { op: 'createRefund', name: 'Idempotency-Key', in: 'header', type: 'string', required: false, minLength: 1, maxLength: 255 },
  // § GET /v1/funding_intents/{id}/options › Path parameter id (string)
  { op: 'listOptions', name: 'id', in: 'path', type: 'string', required: true },
  // § POST /v1/checkout_sessions/resume › Headers (required; absent gives 400); § Limits: 8 to 200
  { op: 'resume', name: 'Idempotency-Key', in: 'header', type: 'string', required: true, minLength: 8, maxLength: 200 },
];

export interface BodySeed {
  op: OpName;
  section: string;
  fields: FieldSeed[];
}

export const REQUEST_BODIES: BodySeed[] = [
  {
    op: 'createRefund',
    section: 'POST /v1/funding-intents/{id}/payments/{paymentId}/refunds › Request body',
    fields: [
      s('reason', { required: true, values: REFUND_REASONS }),
      s('destination_address', { required: false, minLength: 1, maxLength: 128 }),
      obj('destination_memo', { required: false, ref: 'Memo' }),
    ],
  },
  {
    op: 'resume',
    section: 'POST /v1/checkout_sessions/resume › Request body',
    fields: [s('handoff_token'), s('code_verifier')],
  },
  {
    op: 'simpleQuote',
    section: 'POST /v1/quotes › Body',
    fields: [
      s('from_currency', { required: true }),
      s('to_currency', { required: true }),
      { path: 'amount', type: 'number', required: true },
      s('direction', { required: true, values: ['send', 'receive'] }),
    ],
  },
  {
    op: 'createWebhook',
    section: 'POST /v1/webhooks › Body',
    // "events (array of event type strings, see Events)"
    fields: [s('url'), arr('events'), s('events[]', { appears: eventTypes() })],
  },
];

/** A response INTERFACE.md ties to an operation; `path` '' is the body itself. */
export interface ResponseSeed {
  op: OpName;
  status: string;
  section: string;
  path: string;
  ref?: string;
  fields?: FieldSeed[];
}

export const RESPONSES: ResponseSeed[] = [
  { op: 'listFundingIntents', status: '200', section: 'GET /v1/funding-intents › Response 200', path: 'data[]', ref: 'FundingIntent' },
  { op: 'createRefund', status: '201', section: 'POST …/refunds › Responses', path: '', ref: 'Refund' },
  { op: 'listOptions', status: '200', section: 'GET …/options', path: 'options[]', ref: 'FundingOption', fields: [arr('options')] },
  { op: 'handoff', status: '2xx', section: 'POST …/handoff: returns { handoff_token }', path: '', fields: [s('handoff_token')] },
  { op: 'resume', status: '200', section: 'POST /v1/checkout_sessions/resume › Response 200', path: '', ref: 'CheckoutSession' },
  { op: 'simpleQuote', status: '2xx', section: 'POST /v1/quotes › Response', path: '', ref: 'SimpleQuote' },
];

// Statuses INTERFACE.md ties to operations (§ Endpoints, § Errors › Rules tied to operations).
export const DOCUMENTED_STATUSES: { op: OpName; statuses: string[]; section: string }[] = [
  { op: 'createRefund', statuses: ['201', '401', '404', '409', '422'], section: 'POST …/refunds › Responses' },
  { op: 'resume', statuses: ['400'], section: 'resume › Idempotency-Key absent gives HTTP 400' },
  { op: 'acceptQuote', statuses: ['409'], section: 'Rules › quote accepted after it expired: typically HTTP 409' },
];

// § Errors › Rules tied to operations: "Quote accepted after expiry → quote_expired; typically 409".
export const QUOTE_EXPIRED = { op: 'acceptQuote' as OpName, status: '409', code: 'quote_expired' };

// Which envelope an operation's errors use (§ Errors: "Envelope (application API operations)",
// "Envelope (checkout, options and error-reference form)"; quote_expired is the lowercase form).
export const ENVELOPE_FORMS: { op: OpName; form: 'application' | 'checkout' }[] = [
  { op: 'listFundingIntents', form: 'application' },
  { op: 'createRefund', form: 'application' },
  { op: 'listOptions', form: 'checkout' },
  { op: 'resume', form: 'checkout' },
  { op: 'acceptQuote', form: 'checkout' },
];

// § Errors › Codes
export const ERROR_CODES = [
  'BAD_REQUEST', 'VALIDATION_ERROR', 'UNAUTHORIZED', 'FORBIDDEN', 'NOT_FOUND', 'CONFLICT',
  'IDEMPOTENCY_KEY_REQUIRED', 'IDEMPOTENCY_KEY_REUSED', 'IDEMPOTENCY_REQUEST_IN_PROGRESS', 'APPLICATION_INACTIVE',
  'INVALID_AMOUNT', 'UNSUPPORTED_ASSET', 'INVALID_DESTINATION', 'INVALID_EXPIRATION', 'PROTOCOL_REJECTED',
  'PROTOCOL_UNAVAILABLE', 'NO_ROUTE_AVAILABLE', 'INSUFFICIENT_INPUT', 'QUOTE_EXPIRED', 'QUOTE_NOT_SELECTABLE',
  'QUOTE_NOT_LOCKED', 'EXECUTION_NOT_FAILED', 'EXECUTION_NOT_RESUMABLE', 'LOGO_FORMAT_UNSUPPORTED',
  'LOGO_DIMENSIONS_INVALID', 'LOGO_STORAGE_UNAVAILABLE', 'ROUTE_UNAVAILABLE', 'RATE_LIMITED',
  'INVALID_CREDENTIALS', 'EMAIL_NOT_VERIFIED', 'EMAIL_ALREADY_REGISTERED', 'SESSION_EXPIRED', 'INVALID_TOKEN',
  'INTERNAL_ERROR',
];

/** The spec schemas holding the two envelopes and the code enums (brief's name mapping). */
export const ERROR_SCHEMAS = {
  applicationEnvelope: /^ApiError\d{3}$/,
  checkoutEnvelope: /^CheckoutError\d{3}$/,
  codeEnum: 'ErrorCode',
  checkoutCodeEnum: 'CheckoutErrorCode',
};

// § Errors › Envelope (application API operations): `{ error: {...} }`
export const APPLICATION_ENVELOPE: FieldSeed[] = [
  obj('error', { required: true }),
  s('error.code', { required: true }),
  s('error.message', { required: true }),
  s('error.requestId', { required: true }),
  bool('error.retryable', { required: false }),
  arr('error.details', { required: false }),
  obj('error.details[]'),
  s('error.details[].path'),
  s('error.details[].message'),
];

// § Errors › Envelope (checkout, options and error-reference form); required-ness not stated.
export const CHECKOUT_ENVELOPE: FieldSeed[] = [
  obj('error'),
  s('error.code'),
  s('error.message'),
  s('error.type', { appears: ['validation_error'] }),
  s('error.request_id'),
  s('error.param'),
  bool('error.retryable'),
  int('error.retry_after_seconds'),
  s('error.docs_url'),
];

// § Events › Event types
export function eventTypes(): string[] {
  return [
    'payment.pending', 'payment.processing', 'payment.completed', 'payment.failed',
    'payout.initiated', 'payout.completed', 'payout.failed',
    'invoice.paid', 'invoice.overdue',
    'refund.created', 'refund.completed',
  ];
}
export const EVENT_TYPES = eventTypes();
export const EVENT_TYPE_ENUM = 'WebhookEventType';

// § Events › Payload
export const EVENT_PAYLOAD: FieldSeed[] = [s('id'), s('type'), ts('created_at'), obj('data')];
// § Events › Payload: "data … for a payment event"
export const PAYMENT_EVENT_DATA: FieldSeed[] = [
  s('payment_id'), num('amount'), s('currency'), num('settlement_amount'), s('settlement_asset'),
  s('stellar_txn_hash'), obj('metadata'),
];
export const PAYMENT_EVENT_DATA_SCHEMA = 'PaymentEventData';

// § Events › Signature: `sha256=` + lowercase hex HMAC-SHA256 (64 hex digits).
export const SIGNATURE_HEADER = { name: 'Service-Signature', pattern: '^sha256=[0-9a-f]{64}$' };

// § What the service does: "Every response carries the header X-Request-ID".
export const REQUEST_ID_HEADER = 'X-Request-ID';
// § What the service does: bodies are JSON.
export const JSON_MEDIA = 'application/json';

// § Authentication › Rules 1: Authorization: Bearer; the table's credential forms.
export const AUTH = {
  bearerOps: ['listFundingIntents', 'createRefund', 'listOptions', 'resume'] as OpName[],
  credentialForms: ['sk_live_', 'sk_test_', 'pk_live_', 'pk_test_', 'JWT'],
};

// Limits that no schema keyword can carry, so the spec must at least document them (§ Limits,
// § Authentication › Rules 6).
export const DOCUMENTED_TEXT: { op: OpName | 'requestLogs'; mentions: string; section: string }[] = [
  { op: 'resume', mentions: 'server-side only', section: 'Authentication › Rules 6' },
  { op: 'handoff', mentions: 'single use', section: 'Limits › Handoff token lifetime' },
  { op: 'handoff', mentions: '60 seconds', section: 'Limits › Handoff token lifetime' },
  { op: 'simpleQuote', mentions: '30 seconds', section: 'Limits › Simple quote lock' },
  { op: 'listOptions', mentions: '60 seconds', section: 'Limits › Quote lifetime' },
  { op: 'requestLogs', mentions: '30 days', section: 'Limits › Request log retention' },
];

// § Limits › Page size: 1 to 100; default 50; default 20 for quotes (list operations).
export const PAGE_SIZE = { minimum: 1, maximum: 100, default: 50, quotesDefault: 20 };

// § Versioning; § What the service does (two environments).
export const VERSIONING = { prefix: '/v1/', version: '1', environments: ['production', 'sandbox'] };
