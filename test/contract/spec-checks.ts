/**
 * Turns the hand-written INTERFACE.md seed into named checks over an OpenAPI document.
 *
 * A check returns the problems it found ([] = the spec holds that statement). `checkSpec` runs them
 * all, so the same code serves the real spec and the in-memory mutations of the self-test.
 */
import * as seed from './interface-seed.js';
import type { FieldSeed, OpName, OpRef } from './interface-seed.js';
import {
  asNode, at, componentSchema, enumValues, fieldType, findParameter, isNode, isRequired, jsonSchema, keyword,
  operations, parentOf, parts, property, refNames, requestBody, resolveRef, responses,
} from './openapi-walk.js';
import type { Node, Operation, Spec } from './openapi-walk.js';

export interface Check {
  /** Unique, and says what INTERFACE.md states, so a failing `it` names what is missing. */
  id: string;
  run: (spec: Spec) => string[];
}

const same = (a: unknown[], b: unknown[]) => a.length === b.length && a.every((x) => b.includes(x));
const show = (xs: Iterable<unknown>) => `[${[...xs].map(String).join(', ')}]`;
/** `Schema.field`, or just `Schema` for the root. */
const loc = (where: string, path: string) => (path ? `${where}.${path}` : where);
const opLabel = (r: OpRef) => `${r.method.toUpperCase()} ${'path' in r ? r.path : `…${r.pathEndsWith}`}`;

// ---------------------------------------------------------------------------------------------
// Locating operations

export function findOp(spec: Spec, ref: OpRef): Operation | undefined {
  return operations(spec).find((o) => o.method === ref.method && ('path' in ref ? o.path === ref.path : o.path.endsWith(ref.pathEndsWith)));
}

/** Runs `fn` on the operation, or reports that the operation is missing. */
function withOp(name: OpName, fn: (o: Operation, spec: Spec) => string[]): (spec: Spec) => string[] {
  return (spec) => {
    const o = findOp(spec, seed.OPS[name]);
    return o ? fn(o, spec) : [`operation ${opLabel(seed.OPS[name])} is missing`];
  };
}

/** The JSON schema of a response: exact status, or the first 2xx for '2xx'. */
function responseSchema(spec: Spec, o: Operation, status: string): Node | undefined {
  const all = responses(spec, o.op);
  const hit = status === '2xx' ? all.find(([s]) => /^2\d\d$/.test(s)) : all.find(([s]) => s === status);
  return jsonSchema(spec, hit?.[1]);
}

// ---------------------------------------------------------------------------------------------
// Field checks

interface FieldContext {
  strictNull?: boolean;
  where: string;
}

function typeProblems(spec: Spec, node: Node, f: FieldSeed, ctx: FieldContext): string[] {
  const t = fieldType(spec, node);
  if (t === 'any') return [`${loc(ctx.where, f.path)} has no type (INTERFACE: ${f.type})`];
  const nonNull = [...t].filter((x) => x !== 'null');
  // `number` also admits `integer`; a spec listing both is still "a number".
  const ok = f.type === 'number' ? nonNull.includes('number') && nonNull.every((x) => x === 'number' || x === 'integer') : same(nonNull, [f.type]);
  const out = ok ? [] : [`${loc(ctx.where, f.path)} is ${show(t)}, INTERFACE says ${f.type}`];
  if (f.nullable && !t.has('null')) out.push(`${loc(ctx.where, f.path)} is not nullable, INTERFACE says "or null"`);
  if (!f.nullable && ctx.strictNull && t.has('null')) out.push(`${loc(ctx.where, f.path)} is nullable, INTERFACE says ${f.type} (not "or null")`);
  return out;
}

function enumProblems(spec: Spec, node: Node, f: FieldSeed, where: string): string[] {
  if (!f.values && !f.appears) return [];
  const values = enumValues(spec, node)?.filter((v) => v !== null);
  if (!values) return [`${loc(where, f.path)} has no enum (INTERFACE: ${show(f.values ?? f.appears ?? [])})`];
  const out: string[] = [];
  if (f.values && !same(values, f.values)) out.push(`${loc(where, f.path)} enum ${show(values)} differs from INTERFACE ${show(f.values)}`);
  for (const v of f.appears ?? []) if (!values.includes(v)) out.push(`${loc(where, f.path)} enum lacks ${v}`);
  return out;
}

function constraintProblems(spec: Spec, node: Node, f: FieldSeed, where: string): string[] {
  const out: string[] = [];
  for (const key of ['minLength', 'maxLength', 'format'] as const) {
    const want = f[key];
    const got = keyword(spec, node, key);
    if (want !== undefined && got !== want) out.push(`${loc(where, f.path)} ${key} is ${String(got)}, INTERFACE says ${want}`);
  }
  if (f.ref && !refNames(spec, node).has(f.ref)) out.push(`${loc(where, f.path)} is not the ${f.ref} schema (refs ${show(refNames(spec, node))})`);
  if (f.pattern) out.push(...patternProblems(keyword(spec, node, 'pattern'), f, where));
  return out;
}

function patternProblems(pattern: unknown, f: FieldSeed, where: string): string[] {
  if (typeof pattern !== 'string') return [`${loc(where, f.path)} has no pattern for its stated form`];
  const re = new RegExp(pattern, 'u');
  const bad = [
    ...(f.pattern?.accepts ?? []).filter((x) => !re.test(x)).map((x) => `rejects ${x}`),
    ...(f.pattern?.rejects ?? []).filter((x) => re.test(x)).map((x) => `accepts ${x}`),
  ];
  return bad.map((b) => `${loc(where, f.path)} pattern ${pattern} ${b}`);
}

function requiredProblems(spec: Spec, root: Node, f: FieldSeed, where: string): string[] {
  if (f.required === undefined) return [];
  const { parent, name } = parentOf(spec, root, f.path);
  const got = parent ? isRequired(spec, parent, name) : false;
  return got === f.required ? [] : [`${loc(where, f.path)} is ${got ? '' : 'not '}required, INTERFACE says ${f.required ? 'required' : 'optional'}`];
}

export function fieldProblems(spec: Spec, root: Node | undefined, f: FieldSeed, ctx: FieldContext): string[] {
  if (!root) return [`${ctx.where} is missing`];
  const node = at(spec, root, f.path);
  if (!node) return [`${ctx.where} lacks field ${f.path}`];
  return [
    ...typeProblems(spec, node, f, ctx),
    ...enumProblems(spec, node, f, ctx.where),
    ...constraintProblems(spec, node, f, ctx.where),
    ...requiredProblems(spec, root, f, ctx.where),
  ];
}

// ---------------------------------------------------------------------------------------------
// Resources

/** Property names an object schema declares, over parts and non-null branches. */
function declaredKeys(spec: Spec, node: Node): Set<string> {
  const keys = new Set<string>();
  for (const part of parts(spec, node)) {
    for (const k of Object.keys(asNode(part.properties) ?? {})) keys.add(k);
    for (const alt of [...(Array.isArray(part.oneOf) ? part.oneOf : []), ...(Array.isArray(part.anyOf) ? part.anyOf : [])]) {
      if (isNode(alt) && alt.type !== 'null') for (const k of declaredKeys(spec, alt)) keys.add(k);
    }
  }
  return keys;
}

const parentPath = (path: string) => (path.includes('.') ? path.slice(0, path.lastIndexOf('.')) : '');

/** "All … fields are required; no other fields are present": at the root and every nested object. */
function closedProblems(spec: Spec, root: Node, fields: FieldSeed[], where: string): string[] {
  const objects = ['', ...fields.filter((f) => f.type === 'object' && !f.ref && !f.path.includes('[]')).map((f) => f.path)];
  return objects.flatMap((p) => {
    const node = at(spec, root, p);
    if (!node) return [];
    const want = fields.filter((f) => !f.path.includes('[]') && parentPath(f.path) === p).map((f) => f.path.slice(p ? p.length + 1 : 0));
    const label = `${where}${p ? `.${p}` : ''}`;
    const got = [...declaredKeys(spec, node)];
    const out: string[] = [];
    if (!same(got, want)) out.push(`${label} declares ${show(got)}, INTERFACE lists ${show(want)}`);
    const optional = want.filter((k) => !isRequired(spec, node, k));
    if (optional.length) out.push(`${label}: ${show(optional)} not required`);
    if (keyword(spec, node, 'additionalProperties') !== false) out.push(`${label}: additionalProperties is not false`);
    return out;
  });
}

function resourceChecks(): Check[] {
  return seed.RESOURCES.flatMap((r) => {
    const where = r.schema;
    const get = (spec: Spec) => componentSchema(spec, r.schema);
    const checks: Check[] = r.fields.map((f) => ({
      id: `§${r.section}: ${f.path} is ${f.type}${f.nullable ? ' or null' : ''}${describe(f)}`,
      run: (spec) => fieldProblems(spec, get(spec), f, { where, strictNull: r.strictNull }),
    }));
    if (r.objectConst) checks.push(objectConstCheck(r.section, r.schema, r.objectConst));
    if (r.closed) checks.push({
      id: `§${r.section}: every field required, no other fields (additionalProperties false)`,
      run: (spec) => { const root = get(spec); return root ? closedProblems(spec, root, r.fields, where) : [`${where} is missing`]; },
    });
    return checks;
  });
}

function describe(f: FieldSeed): string {
  const bits = [
    f.values && `= ${f.values.join('|')}`,
    f.appears && `∋ ${f.appears.join(', ')}`,
    f.ref && `→ ${f.ref}`,
    f.format,
    f.pattern && 'with its stated form',
    f.required !== undefined && (f.required ? 'required' : 'optional'),
    (f.minLength !== undefined || f.maxLength !== undefined) && `length ${f.minLength ?? ''}–${f.maxLength ?? ''}`,
  ].filter(Boolean);
  return bits.length ? ` (${bits.join('; ')})` : '';
}

function objectConstCheck(section: string, schema: string, value: string): Check {
  return {
    id: `§${section}: object is the const "${value}"`,
    run: (spec) => {
      const node = at(spec, componentSchema(spec, schema), 'object');
      if (!node) return [`${schema} lacks field object`];
      const values = enumValues(spec, node);
      return values && same(values, [value]) ? [] : [`${schema}.object is ${show(values ?? ['(any)'])}, INTERFACE says "${value}"`];
    },
  };
}

function memoChecks(): Check[] {
  const locations: { label: string; get: (spec: Spec) => Node | undefined }[] = [
    { label: 'Refund.destination.memo', get: (spec) => at(spec, componentSchema(spec, 'Refund'), 'destination.memo') },
    {
      label: 'refund request destination_memo',
      get: (spec) => {
        const o = findOp(spec, seed.OPS.createRefund);
        return o && at(spec, jsonSchema(spec, requestBody(spec, o.op)), 'destination_memo');
      },
    },
  ];
  return locations.flatMap((loc) => seed.MEMO_RULES.map((rule) => ({
    id: `§Memo object: ${loc.label} form "${rule.type}" has ${'pattern' in rule ? `pattern ${rule.pattern}` : `minLength ${rule.minLength}`}`,
    run: (spec: Spec) => memoRuleProblems(spec, loc.get(spec), rule, loc.label),
  })));
}

/** The concrete object forms of a memo schema, through `$ref` and nested oneOf/anyOf (null dropped). */
function memoForms(spec: Spec, node: Node, depth = 0): Node[] {
  const alts = parts(spec, node).flatMap((p) => [...(Array.isArray(p.oneOf) ? p.oneOf : []), ...(Array.isArray(p.anyOf) ? p.anyOf : [])]);
  const real = alts.filter(isNode).filter((a) => a.type !== 'null');
  if (real.length === 0 || depth > 4) return [node];
  return real.flatMap((a) => memoForms(spec, a, depth + 1));
}

function memoVariant(spec: Spec, memo: Node, type: string): Node | undefined {
  return memoForms(spec, memo).find((v) => {
    const t = enumValues(spec, property(spec, v, 'type'));
    return t !== undefined && same(t, [type]);
  });
}

function memoRuleProblems(spec: Spec, memo: Node | undefined, rule: (typeof seed.MEMO_RULES)[number], label: string): string[] {
  if (!memo) return [`${label} is missing`];
  const variant = memoVariant(spec, memo, rule.type);
  if (!variant) return [`${label} has no "${rule.type}" form`];
  const value = property(spec, variant, 'value');
  if (!value) return [`${label} "${rule.type}" form lacks value`];
  if ('pattern' in rule) {
    const got = keyword(spec, value, 'pattern');
    return got === rule.pattern ? [] : [`${label} "${rule.type}" value pattern is ${String(got)}, INTERFACE says ${rule.pattern}`];
  }
  const got = keyword(spec, value, 'minLength');
  return got === rule.minLength ? [] : [`${label} "${rule.type}" value minLength is ${String(got)}, INTERFACE says ${rule.minLength}`];
}

// ---------------------------------------------------------------------------------------------
// Endpoints, parameters, bodies, responses

function endpointChecks(): Check[] {
  const table = [...seed.ENDPOINT_TABLE, 'acceptQuote' as const].map((name) => ({
    id: `§Endpoints: ${opLabel(seed.OPS[name])} exists`,
    run: withOp(name, () => []),
  }));
  const named = seed.NAMED_PATHS.map((p) => ({
    id: `§Other operations: path ${p} exists`,
    run: (spec: Spec) => (asNode(spec.paths)?.[p] ? [] : [`path ${p} is missing`]),
  }));
  const groups = Object.entries(seed.RESOURCE_GROUPS).map(([group, re]) => ({
    id: `§What the service does: resource group "${group}" has operations`,
    run: (spec: Spec) => (operations(spec).some((o) => new RegExp(`/${re}`).test(o.path)) ? [] : [`no path for ${group}`]),
  }));
  return [...table, ...named, ...groups, createCheckoutSessionCheck()];
}

/** § Creating a checkout session: path not shown, so find it by its stated shape. */
function createCheckoutSessionCheck(): Check {
  return {
    id: '§Creating a checkout session: a POST takes funding_intent_id (string, required) and returns a session',
    run: (spec) => {
      const found = operations(spec).some((o) => {
        const body = jsonSchema(spec, requestBody(spec, o.op));
        const ok = o.method === 'post' && body && isRequired(spec, body, 'funding_intent_id');
        return ok && refNames(spec, responseSchema(spec, o, '2xx')).has('CheckoutSession');
      });
      return found ? [] : ['no POST operation creates a CheckoutSession from a required funding_intent_id'];
    },
  };
}

function paramChecks(): Check[] {
  return seed.PARAMS.map((p) => ({
    id: `§${opLabel(seed.OPS[p.op])}: ${p.in} parameter ${p.name} (${paramSummary(p)})`,
    run: withOp(p.op, (o, spec) => paramProblems(spec, o, p)),
  }));
}

function paramSummary(p: seed.ParamSeed): string {
  const bits = [p.type, p.required ? 'required' : 'optional'];
  if (p.minLength !== undefined) bits.push(`length ${p.minLength}–${p.maxLength}`);
  if (p.minimum !== undefined) bits.push(`${p.minimum}–${p.maximum}, default ${p.default}`);
  if (p.values) bits.push('the funding intent states');
  return bits.join(', ');
}

function paramProblems(spec: Spec, o: Operation, p: seed.ParamSeed): string[] {
  const where = `${o.method.toUpperCase()} ${o.path} ${p.in} ${p.name}`;
  const param = findParameter(spec, o, p.name, p.in);
  if (!param) return [`${where} is missing`];
  const schema = resolveRef(spec, param.schema);
  const out = fieldProblems(spec, schema, { path: '', type: p.type, values: p.values, minLength: p.minLength, maxLength: p.maxLength }, { where });
  if (Boolean(param.required) !== p.required) out.push(`${where} required is ${String(param.required ?? false)}, INTERFACE says ${p.required}`);
  for (const key of ['minimum', 'maximum', 'default'] as const) {
    const got = keyword(spec, schema, key);
    if (p[key] !== undefined && got !== p[key]) out.push(`${where} ${key} is ${String(got)}, INTERFACE says ${p[key]}`);
  }
  return out;
}

function bodyChecks(): Check[] {
  return seed.REQUEST_BODIES.flatMap((b) => {
    const where = `${opLabel(seed.OPS[b.op])} body`;
    const exists: Check = {
      id: `§${b.section}: a JSON request body`,
      run: withOp(b.op, (o, spec) => (jsonSchema(spec, requestBody(spec, o.op)) ? [] : [`${where} has no ${seed.JSON_MEDIA} schema`])),
    };
    const fields = b.fields.map((f) => ({
      id: `§${b.section}: ${f.path} is ${f.type}${describe(f)}`,
      run: withOp(b.op, (o, spec) => fieldProblems(spec, jsonSchema(spec, requestBody(spec, o.op)), f, { where })),
    }));
    return [exists, ...fields];
  });
}

function responseChecks(): Check[] {
  return seed.RESPONSES.flatMap((r) => {
    const where = `${opLabel(seed.OPS[r.op])} ${r.status}`;
    const checks: Check[] = (r.fields ?? []).map((f) => ({
      id: `§${r.section}: ${r.status} body ${f.path} is ${f.type}`,
      run: withOp(r.op, (o, spec) => fieldProblems(spec, responseSchema(spec, o, r.status), f, { where })),
    }));
    if (r.ref) checks.push({
      id: `§${r.section}: ${r.status} body ${r.path || '(root)'} is ${r.ref}`,
      run: withOp(r.op, (o, spec) => {
        const body = responseSchema(spec, o, r.status);
        if (!body) return [`${where} has no ${seed.JSON_MEDIA} body`];
        const node = at(spec, body, r.path);
        return node && refNames(spec, node).has(r.ref ?? '') ? [] : [`${where} ${r.path || 'body'} is not ${r.ref}`];
      }),
    });
    return checks;
  });
}

function statusChecks(): Check[] {
  return seed.DOCUMENTED_STATUSES.flatMap((d) => d.statuses.map((status) => ({
    id: `§${d.section}: ${opLabel(seed.OPS[d.op])} documents ${status}`,
    run: withOp(d.op, (o, spec) => (responses(spec, o.op).some(([s]) => s === status) ? [] : [`${opLabel(seed.OPS[d.op])} does not document ${status}`])),
  })));
}

function quoteExpiredCheck(): Check {
  const q = seed.QUOTE_EXPIRED;
  return {
    id: `§Errors › Rules: quote accept ${q.status} carries ${q.code}`,
    run: withOp(q.op, (o, spec) => {
      const code = at(spec, responseSchema(spec, o, q.status), 'error.code');
      const values = code && enumValues(spec, code);
      return values?.includes(q.code) ? [] : [`${o.path} ${q.status} error.code does not allow ${q.code} (${show(values ?? [])})`];
    }),
  };
}

function envelopeFormChecks(): Check[] {
  return seed.ENVELOPE_FORMS.map(({ op, form }) => ({
    id: `§Errors › Envelope: ${opLabel(seed.OPS[op])} errors use the ${form} envelope`,
    run: withOp(op, (o, spec) => {
      const key = form === 'application' ? 'error.requestId' : 'error.request_id';
      const errors = responses(spec, o.op).filter(([s]) => /^[45]\d\d$/.test(s));
      if (errors.length === 0) return [`${o.path} documents no error response`];
      return errors.filter(([, r]) => !at(spec, jsonSchema(spec, r), key)).map(([s]) => `${o.method.toUpperCase()} ${o.path} ${s} is not the ${form} envelope (no ${key})`);
    }),
  }));
}

// ---------------------------------------------------------------------------------------------
// Errors

function errorSchemas(spec: Spec, re: RegExp): [string, Node][] {
  return Object.entries(asNode(asNode(spec.components)?.schemas) ?? {})
    .filter(([name, s]) => re.test(name) && isNode(s))
    .map(([name, s]) => [name, s as Node]);
}

function errorChecks(): Check[] {
  const codes = seed.ERROR_CODES;
  const lower = codes.map((c) => c.toLowerCase());
  const enumCheck = (name: string, want: string[]): Check => ({
    id: `§Errors › Codes: ${name} is exactly the ${want.length} codes${want === lower ? ' (lowercase)' : ''}`,
    run: (spec) => {
      const got = enumValues(spec, componentSchema(spec, name));
      if (!got) return [`${name} is missing or has no enum`];
      const missing = want.filter((c) => !got.includes(c));
      const extra = got.filter((c) => !want.includes(String(c)));
      return [...missing.map((c) => `${name} lacks ${c}`), ...extra.map((c) => `${name} has ${String(c)}, not an INTERFACE code`)];
    },
  });
  const subset = (re: RegExp, want: string[], label: string): Check => ({
    id: `§Errors › Envelope: every ${label} envelope's code is one of the codes`,
    run: (spec) => errorSchemas(spec, re).flatMap(([name, s]) => {
      const values = enumValues(spec, at(spec, s, 'error.code'));
      return (values ?? ['(open)']).filter((v) => !want.includes(String(v))).map((v) => `${name}.error.code allows ${String(v)}`);
    }),
  });
  return [
    enumCheck(seed.ERROR_SCHEMAS.codeEnum, codes),
    enumCheck(seed.ERROR_SCHEMAS.checkoutCodeEnum, lower),
    subset(seed.ERROR_SCHEMAS.applicationEnvelope, codes, 'application'),
    subset(seed.ERROR_SCHEMAS.checkoutEnvelope, lower, 'checkout'),
    ...envelopeFieldChecks(seed.APPLICATION_ENVELOPE, seed.ERROR_SCHEMAS.applicationEnvelope, 'application API operations'),
    ...envelopeFieldChecks(seed.CHECKOUT_ENVELOPE, seed.ERROR_SCHEMAS.checkoutEnvelope, 'checkout, options and error-reference form'),
  ];
}

/** Each field on every envelope schema; "value X appears" on at least one of them (per-status enums narrow). */
function envelopeFieldChecks(fields: FieldSeed[], re: RegExp, label: string): Check[] {
  const perField = fields.map((f) => ({
    id: `§Errors › Envelope (${label}): ${f.path} is ${f.type}${describe({ ...f, appears: undefined })}`,
    run: (spec: Spec) => {
      const schemas = errorSchemas(spec, re);
      if (schemas.length === 0) return [`no ${re.source} schema`];
      return schemas.flatMap(([name, s]) => fieldProblems(spec, s, { ...f, appears: undefined }, { where: name }));
    },
  }));
  const appears = fields.flatMap((f) => (f.appears ?? []).map((value) => ({
    id: `§Errors › Envelope (${label}): ${f.path} value ${value} appears`,
    run: (spec: Spec) => {
      const all = errorSchemas(spec, re).flatMap(([, s]) => enumValues(spec, at(spec, s, f.path)) ?? []);
      return all.includes(value) ? [] : [`no ${re.source} envelope allows ${f.path} = ${value}`];
    },
  })));
  return [...perField, ...appears];
}

// ---------------------------------------------------------------------------------------------
// Headers, media types, auth

function requestIdCheck(): Check {
  return {
    id: `§What the service does: ${seed.REQUEST_ID_HEADER} is a required header of every response of every operation`,
    run: (spec) => operations(spec).flatMap((o) => responses(spec, o.op).flatMap(([status, r]) => {
      const headers = asNode(r.headers) ?? {};
      const key = Object.keys(headers).find((h) => h.toLowerCase() === seed.REQUEST_ID_HEADER.toLowerCase());
      const header = key === undefined ? undefined : resolveRef(spec, headers[key]);
      const where = `${o.method.toUpperCase()} ${o.path} ${status}`;
      if (!header) return [`${where} lacks ${seed.REQUEST_ID_HEADER}`];
      return header.required === true ? [] : [`${where} ${seed.REQUEST_ID_HEADER} is not required`];
    })),
  };
}

function jsonMediaChecks(): Check[] {
  return seed.ENDPOINT_TABLE.map((name) => ({
    id: `§What the service does: ${opLabel(seed.OPS[name])} bodies are ${seed.JSON_MEDIA}`,
    run: withOp(name, (o, spec) => {
      const holders: [string, Node | undefined][] = [['request', requestBody(spec, o.op)], ...responses(spec, o.op).filter(([s]) => /^2\d\d$/.test(s) && s !== '204')];
      return holders
        .filter(([, h]) => h?.content !== undefined)
        .filter(([, h]) => !asNode(h?.content)?.[seed.JSON_MEDIA])
        .map(([label]) => `${o.path} ${label} is not ${seed.JSON_MEDIA}`);
    }),
  }));
}

function schemes(spec: Spec): [string, Node][] {
  return Object.entries(asNode(asNode(spec.components)?.securitySchemes) ?? {}).map(([k, v]) => [k, resolveRef(spec, v) ?? {}]);
}

const isBearer = (s: Node | undefined) => s?.type === 'http' && String(s.scheme).toLowerCase() === 'bearer';

function authChecks(): Check[] {
  const all: Check = {
    id: '§Authentication › Rules 1: every security scheme is HTTP bearer',
    run: (spec) => {
      const list = schemes(spec);
      if (list.length === 0) return ['no securitySchemes'];
      return list.filter(([, s]) => !isBearer(s)).map(([k]) => `security scheme ${k} is not http bearer`);
    },
  };
  const perOp = seed.AUTH.bearerOps.map((name) => ({
    id: `§Authentication: ${opLabel(seed.OPS[name])} is authenticated with a bearer credential`,
    run: withOp(name, (o, spec) => bearerOpProblems(spec, o)),
  }));
  const forms = seed.AUTH.credentialForms.map((form) => ({
    id: `§Authentication: a bearer scheme documents the credential form ${form}`,
    run: (spec: Spec) => (schemes(spec).some(([, s]) => isBearer(s) && `${String(s.bearerFormat ?? '')} ${String(s.description ?? '')}`.includes(form)) ? [] : [`no bearer scheme mentions ${form}`]),
  }));
  return [all, ...perOp, ...forms];
}

function bearerOpProblems(spec: Spec, o: Operation): string[] {
  const reqs = (Array.isArray(o.op.security) ? o.op.security : Array.isArray(spec.security) ? spec.security : []).filter(isNode);
  const names = reqs.map((r) => Object.keys(r));
  if (names.length === 0 || names.some((n) => n.length === 0)) return [`${o.path} can be called without a credential`];
  const byName = new Map(schemes(spec));
  return names.flat().filter((n) => !isBearer(byName.get(n))).map((n) => `${o.path} accepts ${n}, not a bearer scheme`);
}

function documentedTextChecks(): Check[] {
  return seed.DOCUMENTED_TEXT.map((d) => ({
    id: `§${d.section}: ${d.op === 'requestLogs' ? 'the request-log operations' : opLabel(seed.OPS[d.op])} document "${d.mentions}"`,
    run: (spec: Spec) => {
      const ops = d.op === 'requestLogs'
        ? operations(spec).filter((o) => new RegExp(seed.RESOURCE_GROUPS['request logs'] ?? '').test(o.path))
        : [findOp(spec, seed.OPS[d.op])].filter((o): o is Operation => o !== undefined);
      const text = ops.map((o) => `${String(o.op.summary ?? '')} ${String(o.op.description ?? '')}`).join(' ').replace(/\s+/g, ' ');
      return text.toLowerCase().includes(d.mentions.toLowerCase()) ? [] : [`"${d.mentions}" is not documented (${ops.length} operation(s) read)`];
    },
  }));
}

// ---------------------------------------------------------------------------------------------
// Events

function eventChecks(): Check[] {
  const perEvent = seed.EVENT_TYPES.flatMap((type) => [
    {
      id: `§Events › Event types: ${type} is in ${seed.EVENT_TYPE_ENUM}`,
      run: (spec: Spec) => (enumValues(spec, componentSchema(spec, seed.EVENT_TYPE_ENUM))?.includes(type) ? [] : [`${seed.EVENT_TYPE_ENUM} lacks ${type}`]),
    },
    { id: `§Events: webhooks["${type}"] is a POST with a JSON body`, run: (spec: Spec) => (webhookBody(spec, type) ? [] : [`webhooks["${type}"].post JSON body is missing`]) },
    { id: `§Events › Signature: webhooks["${type}"] sends ${seed.SIGNATURE_HEADER.name} matching ${seed.SIGNATURE_HEADER.pattern}`, run: (spec: Spec) => signatureProblems(spec, type) },
    ...payloadChecks(type),
  ]);
  const data = seed.PAYMENT_EVENT_DATA.map((f) => ({
    id: `§Events › Payload: ${seed.PAYMENT_EVENT_DATA_SCHEMA}.${f.path} is ${f.type}`,
    run: (spec: Spec) => fieldProblems(spec, componentSchema(spec, seed.PAYMENT_EVENT_DATA_SCHEMA), f, { where: seed.PAYMENT_EVENT_DATA_SCHEMA }),
  }));
  // INTERFACE.md lists 11 types; DESIGN.md §8 adds `refund.failed`, and the spec's endpoint test
  // operation sends `webhook.test`. Any other extra type is a contradiction.
  const extensions = ['refund.failed', 'webhook.test'];
  const closedSet: Check = {
    id: `§Events › Payload: type is one of the ${seed.EVENT_TYPES.length} event types (${seed.EVENT_TYPE_ENUM} adds only ${extensions.join(', ')})`,
    run: (spec) =>
      (enumValues(spec, componentSchema(spec, seed.EVENT_TYPE_ENUM)) ?? [])
        .filter((v) => !seed.EVENT_TYPES.includes(String(v)) && !extensions.includes(String(v)))
        .map((v) => `${seed.EVENT_TYPE_ENUM} has ${String(v)}, not an INTERFACE event type nor a DESIGN.md extension`),
  };
  return [...perEvent, ...data, closedSet];
}

function payloadChecks(type: string): Check[] {
  const payload = seed.EVENT_PAYLOAD.map((f) => (f.path === 'type' ? { ...f, appears: [type] } : f));
  const data = type.startsWith('payment.') ? seed.PAYMENT_EVENT_DATA.map((f) => ({ ...f, path: `data.${f.path}` })) : [];
  return [...payload, ...data].map((f) => ({
    id: `§Events › Payload: ${type} payload ${f.path} is ${f.type}`,
    run: (spec: Spec) => fieldProblems(spec, webhookBody(spec, type), f, { where: `webhooks["${type}"]` }),
  }));
}

function webhookOp(spec: Spec, type: string): Node | undefined {
  return asNode(resolveRef(spec, asNode(spec.webhooks)?.[type])?.post);
}

function webhookBody(spec: Spec, type: string): Node | undefined {
  const op = webhookOp(spec, type);
  return op && jsonSchema(spec, requestBody(spec, op));
}

function signatureProblems(spec: Spec, type: string): string[] {
  const op = webhookOp(spec, type);
  if (!op) return [`webhooks["${type}"].post is missing`];
  const h = findParameter(spec, { op, pathItem: {}, method: 'post', path: type }, seed.SIGNATURE_HEADER.name, 'header');
  if (!h) return [`webhooks["${type}"] lacks header ${seed.SIGNATURE_HEADER.name}`];
  const pattern = keyword(spec, resolveRef(spec, h.schema), 'pattern');
  const out = pattern === seed.SIGNATURE_HEADER.pattern ? [] : [`${seed.SIGNATURE_HEADER.name} pattern is ${String(pattern)}`];
  if (h.required !== true) out.push(`${seed.SIGNATURE_HEADER.name} is not required on ${type}`);
  return out;
}

// ---------------------------------------------------------------------------------------------
// Limits and versioning

/** A list operation: a GET answering the List envelope (its `object` is the const "list"). */
function listOps(spec: Spec): Operation[] {
  return operations(spec).filter((o) => o.method === 'get' && enumValues(spec, at(spec, responseSchema(spec, o, '200'), 'object'))?.includes('list'));
}

function limitChecks(): Check[] {
  const p = seed.PAGE_SIZE;
  return [{
    id: `§Limits › Page size: every list operation's limit is ${p.minimum}–${p.maximum}, default ${p.default} (${p.quotesDefault} for quotes)`,
    run: (spec) => {
      const ops = listOps(spec);
      if (ops.length === 0) return ['no list operation found'];
      return ops.flatMap((o) => {
        const param = findParameter(spec, o, 'limit', 'query');
        if (!param) return [];
        const quotes = enumValues(spec, at(spec, responseSchema(spec, o, '200'), 'data[].object'))?.includes('quote');
        const want = { minimum: p.minimum, maximum: p.maximum, default: quotes ? p.quotesDefault : p.default };
        const schema = resolveRef(spec, param.schema);
        return (Object.keys(want) as (keyof typeof want)[])
          .filter((k) => keyword(spec, schema, k) !== want[k])
          .map((k) => `GET ${o.path} limit ${k} is ${String(keyword(spec, schema, k))}, INTERFACE says ${want[k]}`);
      });
    },
  }];
}

function versioningChecks(): Check[] {
  const v = seed.VERSIONING;
  const servers = (spec: Spec) => (Array.isArray(spec.servers) ? spec.servers.filter(isNode) : []);
  return [
    {
      id: `§Versioning: every path carries the prefix ${v.prefix}`,
      run: (spec) => Object.keys(asNode(spec.paths) ?? {}).filter((p) => !p.startsWith(v.prefix)).map((p) => `path ${p} lacks ${v.prefix}`),
    },
    { id: `§Versioning: the interface version is ${v.version}`, run: (spec) => (String(asNode(spec.info)?.version) === v.version ? [] : [`info.version is ${String(asNode(spec.info)?.version)}`]) },
    ...v.environments.map((env) => ({
      id: `§What the service does: a server for the ${env} environment`,
      run: (spec: Spec) => (servers(spec).some((s) => String(s.description ?? '').toLowerCase().includes(env)) ? [] : [`no server described as ${env}`]),
    })),
    {
      id: '§Versioning: server URLs are base addresses (the /v1 prefix is on the paths)',
      run: (spec) => servers(spec).filter((s) => /\/v1\/?$/.test(String(s.url))).map((s) => `server ${String(s.url)} carries /v1`),
    },
  ];
}

// ---------------------------------------------------------------------------------------------

export function buildChecks(): Check[] {
  const checks = [
    ...endpointChecks(), ...resourceChecks(), ...memoChecks(), ...paramChecks(), ...bodyChecks(), ...responseChecks(),
    ...statusChecks(), quoteExpiredCheck(), ...envelopeFormChecks(), ...errorChecks(), requestIdCheck(),
    ...jsonMediaChecks(), ...authChecks(), ...documentedTextChecks(), ...eventChecks(), ...limitChecks(),
    ...versioningChecks(),
  ];
  const dup = checks.map((c) => c.id).filter((id, i, all) => all.indexOf(id) !== i);
  if (dup.length) throw new Error(`duplicate check ids: ${dup.join('; ')}`);
  return checks;
}

/** Every problem of the spec against INTERFACE.md, each prefixed with the check that found it. */
export function checkSpec(spec: Spec, checks: Check[] = buildChecks()): string[] {
  return checks.flatMap((c) => c.run(spec).map((p) => `${c.id} — ${p}`));
}
