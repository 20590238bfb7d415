import { useCallback, useEffect, useState } from 'preact/hooks';
import { isApiError } from './api.js';

export interface Loaded<T> {
  data: T | null;
  error: string | null;
  loading: boolean;
  reload: () => void;
}

/** The message to show for a failed call: the API's own, or that the server was not reached. */
export function errorText(err: unknown): string {
  return isApiError(err) ? err.message : 'The server could not be reached.';
}

/**
 * Loading, error and data states for one API read; reload() after a write. With `pollMs`, the read
 * repeats while the page is shown (live updates without a stream), keeping the last data on screen.
 */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[], pollMs = 0): Loaded<T> {
  const [state, setState] = useState<{ data: T | null; error: string | null; loading: boolean }>({ data: null, error: null, loading: true });
  const [tick, setTick] = useState(0);
  useEffect(() => {
    let live = true;
    setState((s) => ({ ...s, loading: true }));
    load().then(
      (data) => live && setState({ data, error: null, loading: false }),
      (err) => live && setState((s) => ({ data: s.data, error: errorText(err), loading: false })),
    );
    const timer = pollMs > 0 ? setTimeout(() => live && setTick((t) => t + 1), pollMs) : undefined;
    return () => {
      live = false;
      clearTimeout(timer);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [...deps, tick]);
  return { ...state, reload: useCallback(() => setTick((t) => t + 1), []) };
}
