/** JSON-RPC 2.0 errors, with the codes stellar-rpc's jrpc2 answers. */
export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;
export const METHOD_NOT_FOUND = -32601;
export const INVALID_PARAMS = -32602;
export const INTERNAL_ERROR = -32603;

export class RpcError extends Error {
  constructor(readonly code: number, message: string) {
    super(message);
  }
}

export const invalidParams = (message: string) => new RpcError(INVALID_PARAMS, message);

/** The request's params as an object (stellar-rpc takes named params only: jrpc2's AllowArray(false)). */
export function paramsObject(params: unknown): Record<string, unknown> {
  if (params === undefined || params === null) return {};
  if (typeof params !== 'object' || Array.isArray(params)) {
    throw invalidParams('invalid parameters: params must be an object of named parameters');
  }
  return params as Record<string, unknown>;
}

/** stellar-rpc's xdrFormat: "" or "base64" (the default); the sandbox does not render XDR as JSON. */
export function base64Format(params: Record<string, unknown>): void {
  const format = params.xdrFormat;
  if (format === undefined || format === '' || format === 'base64') return;
  if (format === 'json') throw invalidParams('xdrFormat "json" is not supported by the Fundkit sandbox: ask for "base64" (the default)');
  throw invalidParams(`expected xdrFormat to be either 'base64' or 'json', got ${JSON.stringify(format)}`);
}

export function uint32Param(params: Record<string, unknown>, name: string): number | undefined {
  const v = params[name];
  if (v === undefined) return undefined;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > 0xffffffff) {
    throw invalidParams(`invalid parameters: ${name} must be an unsigned 32-bit integer, got ${JSON.stringify(v)}`);
  }
  return v;
}

export function stringParam(params: Record<string, unknown>, name: string, required: true): string;
export function stringParam(params: Record<string, unknown>, name: string, required?: false): string | undefined;
export function stringParam(params: Record<string, unknown>, name: string, required = false): string | undefined {
  const v = params[name];
  if (v === undefined || v === null) {
    if (required) throw invalidParams(`invalid parameters: missing ${name}`);
    return undefined;
  }
  if (typeof v !== 'string') throw invalidParams(`invalid parameters: ${name} must be a string, got ${JSON.stringify(v)}`);
  return v;
}
