import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { resolveAsset } from '../package-root.js';

export type JsonObject = Record<string, any>;
export type ErrorEnvelope = 'application' | 'checkout';

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required: boolean;
  schema: JsonObject;
  /** JSON pointer to `schema`, for Ajv */
  schemaPointer: string;
}

/** One operation of the spec, with its $refs resolved to what the server needs. */
export interface Operation {
  operationId: string;
  method: string;
  /** as written in the spec, e.g. /v1/funding-intents/{id} */
  path: string;
  /** accepted security scheme names; empty = public */
  credentials: Set<string>;
  parameters: Parameter[];
  body: { required: boolean; contentTypes: string[]; schemaPointer: string | null } | null;
  errorEnvelope: ErrorEnvelope;
  idempotencyKey: { required: boolean; minLength: number; maxLength: number } | null;
  /** JSON pointer to the operation object */
  pointer: string;
  responses: Record<string, JsonObject>;
}

export interface Spec {
  document: JsonObject;
  operations: Operation[];
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

/** The spec next to the package (monorepo) or copied into dist (published bin). */
export function defaultSpecPath(): string {
  return resolveAsset(['../../spec/openapi.yaml', 'dist/openapi.yaml']);
}

export function pointerOf(...segments: string[]): string {
  return '#/' + segments.map((s) => encodeURIComponent(s.replace(/~/g, '~0').replace(/\//g, '~1'))).join('/');
}

/** Follows an OpenAPI-level $ref (parameters, responses, request bodies, headers). */
export function resolveRef(document: JsonObject, node: JsonObject): { node: JsonObject; pointer: string | null } {
  let pointer: string | null = null;
  while (node && typeof node.$ref === 'string' && node.$ref.startsWith('#/')) {
    pointer = node.$ref;
    node = node.$ref.slice(2).split('/').reduce((at: any, seg: string) => at?.[decodeURIComponent(seg).replace(/~1/g, '/').replace(/~0/g, '~')], document);
  }
  return { node, pointer };
}

function toParameter(document: JsonObject, raw: JsonObject, fallbackPointer: string): Parameter {
  const { node, pointer } = resolveRef(document, raw);
  return {
    name: node.name,
    in: node.in,
    required: node.in === 'path' || node.required === true,
    schema: node.schema ?? {},
    schemaPointer: `${pointer ?? fallbackPointer}/schema`,
  };
}

function parametersOf(document: JsonObject, path: string, method: string): Parameter[] {
  const pathItem = document.paths[path];
  const byKey = new Map<string, Parameter>();
  (pathItem.parameters ?? []).forEach((raw: JsonObject, i: number) => {
    const p = toParameter(document, raw, pointerOf('paths', path, 'parameters', String(i)));
    byKey.set(`${p.in}:${p.name.toLowerCase()}`, p);
  });
  (pathItem[method].parameters ?? []).forEach((raw: JsonObject, i: number) => {
    const p = toParameter(document, raw, pointerOf('paths', path, method, 'parameters', String(i)));
    byKey.set(`${p.in}:${p.name.toLowerCase()}`, p);
  });
  return [...byKey.values()];
}

function bodyOf(document: JsonObject, path: string, method: string): Operation['body'] {
  const raw = document.paths[path][method].requestBody;
  if (!raw) return null;
  const { node, pointer } = resolveRef(document, raw);
  const base = pointer ?? pointerOf('paths', path, method, 'requestBody');
  const contentTypes = Object.keys(node.content ?? {});
  const json = contentTypes.find((t) => t.includes('json'));
  return {
    required: node.required === true,
    contentTypes,
    schemaPointer: json && node.content[json].schema ? `${base}/content/${encodeURIComponent(json.replace(/\//g, '~1'))}/schema` : null,
  };
}

function credentialsOf(document: JsonObject, op: JsonObject): Set<string> {
  const security: JsonObject[] = op.security ?? document.security ?? [];
  return new Set(security.flatMap((requirement) => Object.keys(requirement)));
}

function toOperation(document: JsonObject, path: string, method: string): Operation {
  const op = document.paths[path][method];
  const parameters = parametersOf(document, path, method);
  const idem = parameters.find((p) => p.in === 'header' && p.name.toLowerCase() === 'idempotency-key');
  return {
    operationId: op.operationId ?? `${method} ${path}`,
    method,
    path,
    credentials: credentialsOf(document, op),
    parameters,
    body: bodyOf(document, path, method),
    errorEnvelope: op['x-error-envelope'] === 'checkout' ? 'checkout' : 'application',
    idempotencyKey: idem
      ? { required: idem.required, minLength: idem.schema.minLength ?? 1, maxLength: idem.schema.maxLength ?? 255 }
      : null,
    pointer: pointerOf('paths', path, method),
    responses: op.responses ?? {},
  };
}

export function loadSpec(path: string = defaultSpecPath()): Spec {
  const document = parse(readFileSync(path, 'utf8')) as JsonObject;
  const operations: Operation[] = [];
  for (const path of Object.keys(document.paths ?? {})) {
    for (const method of METHODS) {
      if (document.paths[path][method]) operations.push(toOperation(document, path, method));
    }
  }
  return { document, operations };
}

/** Funding-intent paths are served in both spellings (DESIGN §2). */
export function pathAliases(path: string): string[] {
  const hyphen = path.replace(/funding_intents/g, 'funding-intents');
  const underscore = path.replace(/funding-intents/g, 'funding_intents');
  return [...new Set([path, hyphen, underscore])];
}

function templateRegex(path: string): RegExp {
  const pattern = path
    .split(/(\{[^}]+\})/)
    .map((part) => (part.startsWith('{') ? '[^/]+' : part.replace(/[.*+?^$()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${pattern.replace(/funding[-_]intents/g, 'funding[-_]intents')}$`);
}

/** Finds the operation a concrete request path belongs to (both spellings), for harnesses. */
export function findOperation(spec: Spec, method: string, path: string): Operation | undefined {
  const bare = path.split('?')[0]!;
  const candidates = spec.operations.filter((op) => op.method === method.toLowerCase() && templateRegex(op.path).test(bare));
  // a literal segment beats a parameter: /v1/x/resume over /v1/x/{id}
  return candidates.sort((a, b) => countParams(a.path) - countParams(b.path))[0];
}

function countParams(path: string): number {
  return (path.match(/\{/g) ?? []).length;
}
