import { ApiError } from './api-error.js';
import type { PagePosition, PageRequest } from '../domain/page.js';

export interface ListEnvelope<T> {
  object: 'list';
  data: T[];
  next_cursor: string | null;
}

export const DEFAULT_PAGE_SIZE = 50;

export function encodeCursor(position: PagePosition): string {
  return Buffer.from(JSON.stringify([position.createdAt, position.id])).toString('base64url');
}

export function decodeCursor(cursor: string): PagePosition {
  try {
    const [createdAt, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown[];
    if (typeof createdAt === 'string' && typeof id === 'string') return { createdAt, id };
  } catch {
    // fall through: any undecodable cursor is the same client error
  }
  throw new ApiError('VALIDATION_ERROR', 'cursor is not a next_cursor returned by this list', {
    details: [{ path: 'query.cursor', message: 'is not a valid cursor' }],
  });
}

/** From validated query parameters (limit already coerced and bounded by the spec). */
export function pageRequest(query: { limit?: number; cursor?: string }, defaultLimit = DEFAULT_PAGE_SIZE): PageRequest {
  return { limit: query.limit ?? defaultLimit, after: query.cursor ? decodeCursor(query.cursor) : null };
}

/** Repos fetch limit + 1 rows; the extra row only tells whether another page exists. */
export function toList<Row extends { created_at: string; id: string }, T>(
  rows: Row[],
  page: PageRequest,
  present: (row: Row) => T,
): ListEnvelope<T> {
  const pageRows = rows.slice(0, page.limit);
  const last = pageRows[pageRows.length - 1];
  const more = rows.length > page.limit && last;
  return {
    object: 'list',
    data: pageRows.map(present),
    next_cursor: more ? encodeCursor({ createdAt: last.created_at, id: last.id }) : null,
  };
}

/** toList for presenters that take the whole page at once (batched reads instead of queries per row). */
export async function toPage<Row extends { created_at: string; id: string }, T>(
  rows: Row[],
  page: PageRequest,
  presentPage: (rows: Row[]) => T[] | Promise<T[]>,
): Promise<ListEnvelope<T>> {
  const shown = await presentPage(rows.slice(0, page.limit));
  let next = 0;
  return toList(rows, page, (_row) => shown[next++]!);
}
