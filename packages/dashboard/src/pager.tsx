import { useState } from 'preact/hooks';

/**
 * Keyset paging: the API gives only a next cursor, so the cursors already visited are kept to go
 * back. `cursor` is the page shown now (undefined = the first).
 */
export function usePager() {
  const [stack, setStack] = useState<string[]>([]);
  return {
    cursor: stack[stack.length - 1],
    page: stack.length + 1,
    next: (cursor: string) => setStack((s) => [...s, cursor]),
    back: () => setStack((s) => s.slice(0, -1)),
    reset: () => setStack([]),
  };
}

export function Pager({ pager, nextCursor }: { pager: ReturnType<typeof usePager>; nextCursor: string | null | undefined }) {
  return (
    <nav class="inline pager" aria-label="Pages">
      <button disabled={pager.page === 1} onClick={pager.back}>Previous</button>
      <span>Page {pager.page}</span>
      <button disabled={!nextCursor} onClick={() => nextCursor && pager.next(nextCursor)}>Next</button>
    </nav>
  );
}
