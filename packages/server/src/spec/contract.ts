import { findOperation, pointerOf, resolveRef, type JsonObject, type Spec } from './operations.js';
import type { SpecValidator } from './validator.js';

export interface ObservedResponse {
  method: string;
  /** request path, query string allowed */
  path: string;
  status: number;
  /** lower-case header names */
  headers: Record<string, string>;
  /** parsed JSON, or undefined when the body is not JSON */
  body: unknown;
}

function documentedResponse(responses: Record<string, JsonObject>, status: number): string | undefined {
  const exact = String(status);
  if (responses[exact]) return exact;
  const range = `${exact[0]}XX`;
  if (responses[range]) return range;
  return responses.default ? 'default' : undefined;
}

function checkHeaders(spec: Spec, validator: SpecValidator, response: JsonObject, observed: ObservedResponse, pointer: string): string[] {
  const problems: string[] = [];
  for (const [name, raw] of Object.entries((response.headers ?? {}) as Record<string, JsonObject>)) {
    const { node: header, pointer: headerPointer } = resolveRef(spec.document, raw);
    const value = observed.headers[name.toLowerCase()];
    if (value === undefined) {
      if (header.required) problems.push(`missing required header ${name}`);
      continue;
    }
    const schemaPointer = `${headerPointer ?? `${pointer}/headers/${encodeURIComponent(name)}`}/schema`;
    const typed = header.schema?.type === 'integer' || header.schema?.type === 'number' ? Number(value) : value;
    problems.push(...validator.validateSchema(schemaPointer, typed).map((p) => `header ${name}: ${p}`));
  }
  return problems;
}

/**
 * Checks one observed response against the spec: the status is documented for the operation,
 * documented headers are present and valid, and a JSON body matches the response schema.
 * Returns the problems (empty = conforms). A path with no operation must be a 404 ApiError.
 */
export function checkResponse(spec: Spec, validator: SpecValidator, observed: ObservedResponse): string[] {
  if (!observed.headers['x-request-id']) return ['missing X-Request-ID'];
  const op = findOperation(spec, observed.method, observed.path);
  if (!op) {
    if (observed.status !== 404) return [`no operation for ${observed.method} ${observed.path}, yet status ${observed.status}`];
    return validator.validateSchema(pointerOf('components', 'schemas', 'ApiError404'), observed.body);
  }
  const key = documentedResponse(op.responses, observed.status);
  if (!key) return [`${op.operationId}: status ${observed.status} is not documented`];
  const { node: response, pointer: responsePointer } = resolveRef(spec.document, op.responses[key]!);
  const pointer = responsePointer ?? `${op.pointer}/responses/${key}`;
  const problems = checkHeaders(spec, validator, response, observed, pointer);
  const content = (response.content ?? {}) as Record<string, JsonObject>;
  const contentType = (observed.headers['content-type'] ?? '').split(';')[0]!.trim();
  const types = Object.keys(content);
  if (types.length === 0) {
    if (observed.body !== undefined && observed.body !== '') problems.push(`${op.operationId} ${observed.status}: body sent where none is documented`);
  } else if (!types.includes(contentType)) {
    problems.push(`${op.operationId} ${observed.status}: content-type ${contentType || '(none)'} is not one of ${types.join(', ')}`);
  } else if (contentType.includes('json') && content[contentType]!.schema) {
    const schemaPointer = `${pointer}/content/${encodeURIComponent(contentType.replace(/\//g, '~1'))}/schema`;
    problems.push(...validator.validateSchema(schemaPointer, observed.body).map((p) => `${op.operationId} ${observed.status} body: ${p}`));
  }
  return problems;
}
