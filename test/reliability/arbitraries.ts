/**
 * fast-check arbitraries derived from the spec's JSON Schemas: valid values, values at the
 * documented boundaries, and invalid ones (wrong types, missing or unknown fields).
 */
import fc from 'fast-check';

type Schema = Record<string, any>;
type Doc = Record<string, any>;

export function deref(doc: Doc, schema: Schema): Schema {
  let node = schema;
  while (node && typeof node.$ref === 'string') {
    node = node.$ref.slice(2).split('/').reduce((at: any, seg: string) => at?.[seg.replace(/~1/g, '/').replace(/~0/g, '~')], doc);
  }
  return node ?? {};
}

function merged(doc: Doc, schema: Schema): Schema {
  const s = deref(doc, schema);
  if (!s.allOf) return s;
  const parts = s.allOf.map((p: Schema) => merged(doc, p));
  return {
    ...Object.assign({}, ...parts), ...s, allOf: undefined, type: 'object',
    properties: Object.assign({}, ...parts.map((p: Schema) => p.properties ?? {}), s.properties ?? {}),
    required: [...new Set([...parts.flatMap((p: Schema) => p.required ?? []), ...(s.required ?? [])])],
  };
}

/** Amount-like strings the server must handle at and around its limits (DESIGN §2). */
const AMOUNT_EDGES = ['0', '0.0000001', '0.00000001', '1', '25.00', '922337203685.4775807', '922337203685.4775808', '-1', '1e3', ' 1', '0x10', ''];

function stringArb(s: Schema): fc.Arbitrary<string> {
  if (s.enum) return fc.constantFrom(...(s.enum as string[]));
  if (s.format === 'date-time') return fc.date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }).map((d) => d.toISOString());
  if (s.format === 'email') return fc.emailAddress();
  if (s.format === 'uri' || s.format === 'url') return fc.webUrl();
  if (s.pattern) {
    // ^[class]+$ with length bounds: build from the class (a filter on length would spin forever)
    const cls = /^\^(\[[^\]]+\])[+*]\$$/.exec(s.pattern);
    if (cls) return fc.string({ unit: fc.stringMatching(new RegExp(`^${cls[1]}$`)), minLength: s.minLength ?? 1, maxLength: Math.min(s.maxLength ?? 40, 200) });
    return fc.stringMatching(new RegExp(s.pattern)).map((v) => v.slice(0, s.maxLength ?? 300));
  }
  return fc.string({ minLength: s.minLength ?? 0, maxLength: Math.min(s.maxLength ?? 40, 200) });
}

const ADDRESS = 'GDVEU3DD4KOFECV66VIHWEZOYX4ZKR3WV27L464SIIPOU2IUI3JCZA57';
/** Realistic values for well-known fields: random strings rarely pass the server's semantic checks. */
export const HINTS: Record<string, fc.Arbitrary<unknown>> = {
  amount: fc.oneof(fc.integer({ min: 1, max: 500 }).map(String), fc.constantFrom('0.5', '25.00', '12.3456789')),
  asset: fc.constantFrom('USDC', 'XLM', 'EURC'),
  from_currency: fc.constantFrom('USDC', 'XLM', 'EURC'),
  to_currency: fc.constantFrom('USDC', 'XLM', 'EURC'),
  destination_address: fc.constant(ADDRESS),
  settlement_address: fc.constant(ADDRESS),
  url: fc.constantFrom('http://127.0.0.1:9/hooks', 'https://hooks.example.org/x'),
  email: fc.emailAddress(),
  password: fc.constant('correct horse battery staple'),
  expires_at: fc.integer({ min: 5, max: 60 * 24 * 7 }).map((m) => new Date(Date.now() + m * 60_000).toISOString()),
  reason: fc.constantFrom('OVERPAYMENT', 'MANUAL', 'WRONG_ASSET'),
};

/** A value that matches the schema (as far as generation can tell). */
export function valid(doc: Doc, schema: Schema, depth = 0): fc.Arbitrary<unknown> {
  const s = merged(doc, schema);
  if (s.const !== undefined) return fc.constant(s.const);
  if (s.oneOf || s.anyOf) return fc.oneof(...(s.oneOf ?? s.anyOf).map((x: Schema) => valid(doc, x, depth + 1)));
  const type = Array.isArray(s.type) ? s.type.find((t: string) => t !== 'null') : s.type;
  if (s.enum) return fc.constantFrom(...s.enum);
  switch (type) {
    case 'string': return stringArb(s);
    case 'integer': return fc.integer({ min: s.minimum ?? -1000, max: s.maximum ?? 1000 });
    case 'number': return fc.double({ min: s.minimum ?? -1e6, max: s.maximum ?? 1e6, noNaN: true });
    case 'boolean': return fc.boolean();
    case 'array': return depth > 4 ? fc.constant([]) : fc.array(valid(doc, s.items ?? {}, depth + 1), { minLength: s.minItems ?? 0, maxLength: Math.min(s.maxItems ?? 3, 3) });
    default: {
      const props = (s.properties ?? {}) as Record<string, Schema>;
      if (depth > 4 || Object.keys(props).length === 0) return fc.constant({});
      const model = Object.fromEntries(Object.entries(props).map(([k, v]) => [k, HINTS[k] ? fc.oneof({ arbitrary: HINTS[k]!, weight: 3 }, { arbitrary: valid(doc, v, depth + 1), weight: 1 }) : valid(doc, v, depth + 1)]));
      return fc.record(model, { requiredKeys: (s.required ?? []).filter((k: string) => k in props) });
    }
  }
}

/** Values of the wrong shape for a field. */
export const wrongValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(null, true, 0, -1, 1.5, '', ' ', [], {}, 'x'.repeat(300), '<script>', "' OR 1=1 --", '\u0000', '💸'),
  fc.constantFrom(...AMOUNT_EDGES),
  fc.string({ maxLength: 20 }),
  fc.integer(),
);

/** A body that is valid, valid at a boundary, or broken in one place. */
export function body(doc: Doc, schema: Schema): fc.Arbitrary<unknown> {
  const s = merged(doc, schema);
  const props = Object.keys(s.properties ?? {});
  const base = valid(doc, schema);
  const broken = props.length === 0 ? fc.constant({ unexpected: 1 }) : fc.tuple(base, fc.constantFrom(...props), wrongValue, fc.boolean()).map(([value, key, bad, drop]) => {
    const copy = { ...(value as Record<string, unknown>) };
    if (drop) delete copy[key];
    else copy[key] = bad;
    return copy;
  });
  const garbage = fc.constantFrom<unknown>('{not json', '[]', 'null', '"string"', '{"a":', 42);
  const extra = base.map((v) => (v && typeof v === 'object' && !Array.isArray(v) ? { ...v, unknown_field: 'x' } : v));
  return fc.oneof({ arbitrary: base, weight: 3 }, { arbitrary: broken, weight: 3 }, { arbitrary: extra, weight: 1 }, { arbitrary: garbage, weight: 1 });
}

/** A query or header parameter value: valid, or a wrong one. */
export function param(doc: Doc, schema: Schema): fc.Arbitrary<string | undefined> {
  return fc.oneof(
    { arbitrary: valid(doc, schema).map((v) => (v === undefined ? undefined : String(v))), weight: 3 },
    { arbitrary: wrongValue.map((v) => String(v)), weight: 1 },
    { arbitrary: fc.constant(undefined), weight: 2 },
  );
}
