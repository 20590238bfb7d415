/**
 * Minimal OpenAPI 3.1 / JSON Schema walking for the seed-coverage checker.
 *
 * A schema is read as a conjunction of "parts": `$ref` targets and `allOf` members are flattened
 * into parts (their constraints all apply), while `oneOf`/`anyOf` stay inside a part as a
 * disjunction. Everything here is pure and tolerant of missing nodes: a checker must report what is
 * absent, not crash on it.
 */
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';

export type Node = { [key: string]: unknown };
export type Spec = Node;
/** The JSON types a schema admits; 'any' when it does not constrain the type at all. */
export type TypeSet = Set<string> | 'any';

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch', 'options', 'head', 'trace'];

export function loadSpec(file: string): Spec {
  return parse(readFileSync(file, 'utf8')) as Spec;
}

export function isNode(x: unknown): x is Node {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

export function asNode(x: unknown): Node | undefined {
  return isNode(x) ? x : undefined;
}

function list(x: unknown): unknown[] {
  return Array.isArray(x) ? x : [];
}

/** Follows a local JSON pointer (`#/components/...`). */
export function pointer(spec: Spec, ref: string): Node | undefined {
  if (!ref.startsWith('#/')) return undefined;
  let cur: unknown = spec;
  for (const raw of ref.slice(2).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    cur = isNode(cur) ? cur[key] : undefined;
  }
  return asNode(cur);
}

/** Follows `$ref` chains (response, parameter, header or schema objects alike). */
export function resolveRef(spec: Spec, node: unknown, depth = 0): Node | undefined {
  const n = asNode(node);
  if (!n || typeof n.$ref !== 'string' || depth > 32) return n;
  return resolveRef(spec, pointer(spec, n.$ref), depth + 1);
}

/** The name of a `#/components/schemas/<Name>` ref. */
export function refName(ref: unknown): string | undefined {
  return typeof ref === 'string' ? /^#\/components\/schemas\/([^/]+)$/.exec(ref)?.[1] : undefined;
}

/** Flattens `$ref` and `allOf` into the list of parts that all apply. */
export function parts(spec: Spec, node: unknown, depth = 0): Node[] {
  const n = asNode(node);
  if (!n || depth > 32) return [];
  const own: Node = { ...n };
  delete own.$ref;
  delete own.allOf;
  const fromRef = typeof n.$ref === 'string' ? parts(spec, pointer(spec, n.$ref), depth + 1) : [];
  const fromAllOf = list(n.allOf).flatMap((m) => parts(spec, m, depth + 1));
  return [own, ...fromRef, ...fromAllOf];
}

function alternatives(part: Node): Node[] {
  return [...list(part.oneOf), ...list(part.anyOf)].filter(isNode);
}

export function isNullSchema(node: Node): boolean {
  return node.type === 'null' || (Array.isArray(node.type) && node.type.length === 1 && node.type[0] === 'null');
}

function jsonTypeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

/** The types one part allows by its own keywords (type, const, enum, oneOf/anyOf). */
function partTypes(spec: Spec, part: Node): TypeSet {
  const constraints: TypeSet[] = [];
  if (typeof part.type === 'string') constraints.push(new Set([part.type]));
  if (Array.isArray(part.type)) constraints.push(new Set(part.type.map(String)));
  if ('const' in part) constraints.push(new Set([jsonTypeOf(part.const)]));
  if (Array.isArray(part.enum)) constraints.push(new Set(part.enum.map(jsonTypeOf)));
  const alts = alternatives(part);
  if (alts.length > 0) constraints.push(union(alts.map((a) => fieldType(spec, a))));
  return intersect(constraints);
}

function union(sets: TypeSet[]): TypeSet {
  if (sets.some((s) => s === 'any')) return 'any';
  return new Set(sets.flatMap((s) => [...(s as Set<string>)]));
}

/** Intersection where an 'integer' is also a 'number' (JSON Schema semantics). */
function intersect(sets: TypeSet[]): TypeSet {
  const known = sets.filter((s): s is Set<string> => s !== 'any');
  if (known.length === 0) return 'any';
  const admits = (s: Set<string>, t: string) => s.has(t) || (t === 'integer' && s.has('number'));
  const candidates = new Set(known.flatMap((s) => [...s]));
  return new Set([...candidates].filter((t) => known.every((s) => admits(s, t))));
}

/** The set of JSON types a schema admits, including 'null'; resolves $ref, allOf, oneOf/anyOf. */
export function fieldType(spec: Spec, schema: unknown): TypeSet {
  const ps = parts(spec, schema);
  if (ps.length === 0) return new Set();
  return intersect(ps.map((p) => partTypes(spec, p)));
}

/** The values an enum-like schema allows (enum/const, intersected over parts); undefined if open. */
export function enumValues(spec: Spec, schema: unknown): unknown[] | undefined {
  let allowed: unknown[] | undefined;
  for (const part of parts(spec, schema)) {
    const own = partEnum(spec, part);
    if (own) allowed = allowed ? allowed.filter((v) => own.includes(v)) : own;
  }
  return allowed;
}

function partEnum(spec: Spec, part: Node): unknown[] | undefined {
  if ('const' in part) return [part.const];
  if (Array.isArray(part.enum)) return part.enum;
  const alts = alternatives(part).filter((a) => !isNullSchema(a));
  if (alts.length === 0) return undefined;
  const each = alts.map((a) => enumValues(spec, a));
  if (each.some((e) => e === undefined)) return undefined;
  return each.flatMap((e) => e ?? []);
}

/** The non-null alternatives of a part's oneOf/anyOf, or the part itself. */
function branches(part: Node): Node[] {
  const alts = alternatives(part).filter((a) => !isNullSchema(a));
  return alts.length > 0 ? alts : [part];
}

/** Combines the sub-schemas found for one key: one stays as is, several become allOf. */
function combine(found: Node[], how: 'allOf' | 'anyOf'): Node | undefined {
  if (found.length <= 1) return found[0];
  return { [how]: found };
}

/** The schema of property `name`, across parts (allOf) and non-null branches (oneOf). */
export function property(spec: Spec, schema: unknown, name: string): Node | undefined {
  const found: Node[] = [];
  for (const part of parts(spec, schema)) {
    const direct = asNode(asNode(part.properties)?.[name]);
    if (direct) found.push(direct);
    const alts = alternatives(part).filter((a) => !isNullSchema(a));
    const inAlts = alts.map((a) => property(spec, a, name)).filter(isNode);
    const viaAlts = combine(inAlts, 'anyOf');
    if (viaAlts) found.push(viaAlts);
  }
  return combine(found, 'allOf');
}

/** The `items` schema of an array schema, across parts and branches. */
export function items(spec: Spec, schema: unknown): Node | undefined {
  const found = parts(spec, schema)
    .flatMap((p) => branches(p))
    .flatMap((b) => parts(spec, b))
    .map((p) => asNode(p.items))
    .filter(isNode);
  return combine(found, 'allOf');
}

/** Walks `a.b[].c`; undefined as soon as a step is missing. */
export function at(spec: Spec, schema: unknown, path: string): Node | undefined {
  if (path === '') return asNode(schema);
  let cur: Node | undefined = asNode(schema);
  for (const segment of path.split('.')) {
    const name = segment.replace(/(\[\])+$/, '');
    if (name !== '') cur = cur && property(spec, cur, name);
    for (let i = 0; i < (segment.match(/\[\]/g)?.length ?? 0); i++) cur = cur && items(spec, cur);
    if (!cur) return undefined;
  }
  return cur;
}

/** The parent schema of a dotted path and the last property name. */
export function parentOf(spec: Spec, schema: unknown, path: string): { parent: Node | undefined; name: string } {
  const cut = path.lastIndexOf('.');
  const name = path.slice(cut + 1);
  return { parent: cut < 0 ? asNode(schema) : at(spec, schema, path.slice(0, cut)), name };
}

/** Is `name` required on `schema` (any allOf part, or every non-null oneOf branch)? */
export function isRequired(spec: Spec, schema: unknown, name: string): boolean {
  return parts(spec, schema).some((part) => {
    if (list(part.required).includes(name)) return true;
    const alts = alternatives(part).filter((a) => !isNullSchema(a));
    return alts.length > 0 && alts.every((a) => isRequired(spec, a, name));
  });
}

/** The first value of a keyword (minLength, pattern, format…) over parts, then non-null branches. */
export function keyword(spec: Spec, schema: unknown, key: string): unknown {
  const ps = parts(spec, schema);
  for (const p of ps) if (key in p) return p[key];
  for (const p of ps) {
    for (const alt of alternatives(p).filter((a) => !isNullSchema(a))) {
      const v = keyword(spec, alt, key);
      if (v !== undefined) return v;
    }
  }
  return undefined;
}

/** Every component-schema name a schema points at ($ref, through allOf/oneOf/anyOf). */
export function refNames(spec: Spec, schema: unknown, depth = 0): Set<string> {
  const n = asNode(schema);
  const out = new Set<string>();
  if (!n || depth > 8) return out;
  const own = refName(n.$ref);
  if (own) out.add(own);
  for (const m of [...list(n.allOf), ...list(n.oneOf), ...list(n.anyOf)]) {
    for (const name of refNames(spec, m, depth + 1)) out.add(name);
  }
  return out;
}

export function componentSchema(spec: Spec, name: string): Node | undefined {
  return asNode(asNode(asNode(spec.components)?.schemas)?.[name]);
}

export interface Operation {
  method: string;
  path: string;
  op: Node;
  pathItem: Node;
}

/** Every operation under `paths` (webhooks are not API operations). */
export function operations(spec: Spec): Operation[] {
  const out: Operation[] = [];
  for (const [path, item] of Object.entries(asNode(spec.paths) ?? {})) {
    const pathItem = asNode(item);
    if (!pathItem) continue;
    for (const method of HTTP_METHODS) {
      const op = asNode(pathItem[method]);
      if (op) out.push({ method, path, op, pathItem });
    }
  }
  return out;
}

/** An operation's parameters (its own, then its path item's), `$ref`s resolved. */
export function parameters(spec: Spec, o: Pick<Operation, 'op' | 'pathItem'>): Node[] {
  return [...list(o.op.parameters), ...list(o.pathItem.parameters)]
    .map((p) => resolveRef(spec, p))
    .filter(isNode);
}

export function findParameter(spec: Spec, o: Operation, name: string, where: string): Node | undefined {
  // Header names are case-insensitive (RFC 9110); other locations are not.
  const same = (n: unknown) => (where === 'header' ? String(n).toLowerCase() === name.toLowerCase() : n === name);
  return parameters(spec, o).find((p) => p.in === where && same(p.name));
}

/** Responses of an operation with their status keys, `$ref`s resolved. */
export function responses(spec: Spec, op: Node): [string, Node][] {
  return Object.entries(asNode(op.responses) ?? {})
    .map(([status, r]): [string, Node | undefined] => [status, resolveRef(spec, r)])
    .filter((e): e is [string, Node] => e[1] !== undefined);
}

/** The JSON schema of a response or request body. */
export function jsonSchema(spec: Spec, holder: Node | undefined, media = 'application/json'): Node | undefined {
  return asNode(asNode(asNode(holder?.content)?.[media])?.schema);
}

export function requestBody(spec: Spec, op: Node): Node | undefined {
  return resolveRef(spec, op.requestBody);
}
