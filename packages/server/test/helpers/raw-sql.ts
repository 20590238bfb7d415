/**
 * A test's own SQL (`?` placeholders) on the server's database, either engine: reads to check
 * what the API stored, and writes that set up a case. Plain SQL both engines accept, please.
 */
import { sql as kysql } from 'kysely';
import { dynamic, type Sql } from '../../src/db/sql.js';

function raw<Row>(text: string, args: unknown[], bigint = false) {
  const parts = text.split('?');
  const strings = Object.assign([...parts], { raw: [...parts] }) as unknown as TemplateStringsArray;
  return dynamic<Row>((k) => ({ compile: () => kysql(strings, ...args).compile(k) }), { bigint });
}

export async function rows<Row = Record<string, any>>(sql: Sql, text: string, ...args: unknown[]): Promise<Row[]> {
  return sql.all(raw<Row>(text, args));
}

/** As `rows`, with 64-bit integers (and sums) as BigInt on both engines. */
export function bigRows<Row = Record<string, any>>(sql: Sql, text: string, ...args: unknown[]): Promise<Row[]> {
  return sql.all(raw<Row>(text, args, true));
}

/** The first column of the first row (a count, an id); counts come back as numbers on both engines. */
export async function value<T = unknown>(sql: Sql, text: string, ...args: unknown[]): Promise<T | undefined> {
  return (await sql.column(raw<Record<string, T>>(text, args)))[0];
}

/** A write; how many rows it changed. */
export async function run(sql: Sql, text: string, ...args: unknown[]): Promise<number> {
  return sql.run(raw(text, args));
}
