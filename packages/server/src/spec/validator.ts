import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { JsonObject, Operation, Parameter, Spec } from './operations.js';

/** One field's problem, as the error envelope's `details` carry it (http/api-error.ts). */
export interface ErrorDetail {
  path: string;
  message: string;
}

const COMPONENT = /^#\/components\/schemas\/([^/]+)(\/.*)?$/;

/** `#/components/schemas/X/rest` → `X.json#/rest`: each component is its own Ajv schema. */
function rewriteRefs(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(rewriteRefs);
  if (!node || typeof node !== 'object') return node;
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(node)) {
    const match = key === '$ref' && typeof value === 'string' ? COMPONENT.exec(value) : null;
    out[key] = match ? `${decodeURIComponent(match[1]!)}.json${match[2] ? `#${match[2]}` : ''}` : rewriteRefs(value);
  }
  return out;
}

function nodeAt(document: JsonObject, pointer: string): unknown {
  return pointer.slice(2).split('/').reduce((at: any, seg: string) => at?.[decodeURIComponent(seg).replace(/~1/g, '/').replace(/~0/g, '~')], document);
}

function newAjv(coerceTypes: boolean): Ajv2020 {
  // strict: false because OpenAPI adds keywords JSON Schema does not know (example, discriminator)
  const ajv = new Ajv2020({ allErrors: true, strict: false, coerceTypes, logger: false, validateSchema: false });
  (addFormats as unknown as (a: Ajv2020) => void)(ajv);
  ajv.addKeyword({ keyword: 'example' });
  ajv.addKeyword(maxSerializedBytes);
  return ajv;
}

/** `x-max-serialized-bytes`: the spec's bound on a free-form value's JSON size (Metadata: 8 KB). */
const maxSerializedBytes = {
  keyword: 'x-max-serialized-bytes',
  schemaType: 'number',
  error: { message: ({ schema }: { schema: unknown }) => `must be at most ${String(schema)} bytes as serialized JSON` },
  validate: (limit: number, data: unknown) => Buffer.byteLength(JSON.stringify(data) ?? '', 'utf8') <= limit,
} as const;

/** Ajv "instancePath + property" as a dotted path: body.requirement.amount */
function detailOf(prefix: string, error: ErrorObject): ErrorDetail {
  const segments = error.instancePath.split('/').filter(Boolean).map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  const params = error.params as Record<string, unknown>;
  const extra = (params.missingProperty ?? params.additionalProperty) as string | undefined;
  if (extra) segments.push(extra);
  // a propertyNames failure (a key too long) names the key, not the value under it
  const badKey = (error as { propertyName?: string }).propertyName;
  if (badKey !== undefined) segments.push(badKey);
  const path = [prefix, ...segments].filter(Boolean).join('.');
  const message = params.additionalProperty ? `unknown field ${String(extra)}` : badKey !== undefined ? `key ${error.message ?? 'is invalid'}` : error.message ?? 'is invalid';
  return { path, message: params.missingProperty ? 'is required' : message };
}

/** Ajv's errors as details; a propertyNames summary ("property name must be valid") adds nothing to the key's own error. */
function detailsOf(prefix: string, errors: ErrorObject[] | null | undefined): ErrorDetail[] {
  return (errors ?? []).filter((e) => e.keyword !== 'propertyNames').map((e) => detailOf(prefix, e));
}

function uniqueDetails(details: ErrorDetail[]): ErrorDetail[] {
  const seen = new Set<string>();
  return details.filter((d) => {
    const key = `${d.path}|${d.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

export interface RequestParts {
  path: Record<string, unknown>;
  query: Record<string, unknown>;
  header: Record<string, unknown>;
  body: unknown;
  hasBody: boolean;
}

/** Compiles the spec's schemas once (lazily per operation) and validates requests and responses. */
export class SpecValidator {
  private readonly strictAjv = newAjv(false);
  private readonly coercingAjv = newAjv(true);
  private readonly cache = new Map<string, ValidateFunction>();

  constructor(readonly spec: Spec) {
    for (const [name, schema] of Object.entries((spec.document.components?.schemas ?? {}) as JsonObject)) {
      this.strictAjv.addSchema(rewriteRefs(schema) as JsonObject, `${name}.json`);
      this.coercingAjv.addSchema(rewriteRefs(schema) as JsonObject, `${name}.json`);
    }
  }

  /** Compiles every operation's request schemas now, so a broken spec fails start-up. */
  compileAll(): void {
    for (const op of this.spec.operations) {
      for (const location of ['path', 'query', 'header'] as const) this.parametersValidator(op, location);
      if (op.body?.schemaPointer) this.schema(op.body.schemaPointer);
    }
  }

  private schema(pointer: string, coerce = false): ValidateFunction {
    const cacheKey = `${coerce}:${pointer}`;
    let validate = this.cache.get(cacheKey);
    if (!validate) {
      const ajv = coerce ? this.coercingAjv : this.strictAjv;
      const node = nodeAt(this.spec.document, pointer);
      if (node === undefined) throw new Error(`spec has no schema at ${pointer}`);
      validate = ajv.compile(rewriteRefs(node) as JsonObject);
      this.cache.set(cacheKey, validate);
    }
    return validate;
  }

  private parametersValidator(op: Operation, location: Parameter['in']): ValidateFunction {
    const cacheKey = `params:${op.pointer}:${location}`;
    let validate = this.cache.get(cacheKey);
    if (!validate) {
      const params = op.parameters.filter((p) => p.in === location);
      const properties: JsonObject = {};
      for (const p of params) properties[p.name] = rewriteRefs(nodeAt(this.spec.document, p.schemaPointer) ?? {});
      const required = params.filter((p) => p.required).map((p) => p.name);
      validate = this.coercingAjv.compile({ type: 'object', properties, required });
      this.cache.set(cacheKey, validate);
    }
    return validate;
  }

  /** Returns every failing field; coerces path, query and header values in place. */
  validateRequest(op: Operation, parts: RequestParts): ErrorDetail[] {
    const details: ErrorDetail[] = [];
    for (const location of ['path', 'query', 'header'] as const) {
      const validate = this.parametersValidator(op, location);
      if (!validate(parts[location])) details.push(...detailsOf(location, validate.errors));
    }
    if (op.body) {
      if (!parts.hasBody) {
        if (op.body.required) details.push({ path: 'body', message: 'a JSON request body is required' });
      } else if (op.body.schemaPointer) {
        const validate = this.schema(op.body.schemaPointer);
        if (!validate(parts.body)) details.push(...detailsOf('body', validate.errors));
      }
    }
    return uniqueDetails(details);
  }

  /** Validates a value against a schema pointer of the document (used by the contract check). */
  validateSchema(pointer: string, value: unknown): string[] {
    const validate = this.schema(pointer);
    if (validate(value)) return [];
    return (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? 'invalid'} ${JSON.stringify(e.params)}`);
  }
}
