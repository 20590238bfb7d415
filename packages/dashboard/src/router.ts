import { useEffect, useState } from 'preact/hooks';

/**
 * Hash routes (`#/intents/fi_…`): the server serves one index.html at /dashboard, so the page
 * path stays fixed and a reload or a shared link still lands on the same page.
 */
export interface Route { page: string; id: string | null; params: URLSearchParams }

export function parseRoute(hash: string): Route {
  const [path = '', query = ''] = hash.replace(/^#\/?/, '').split('?');
  const [page = '', id = null] = path.split('/').filter(Boolean);
  return { page: page || 'intents', id: id ? decodeURIComponent(id) : null, params: new URLSearchParams(query) };
}

export function useRoute(): Route {
  const [hash, setHash] = useState(location.hash);
  useEffect(() => {
    const onChange = () => setHash(location.hash);
    addEventListener('hashchange', onChange);
    return () => removeEventListener('hashchange', onChange);
  }, []);
  return parseRoute(hash);
}

export const href = (page: string, id?: string) => `#/${page}${id ? `/${encodeURIComponent(id)}` : ''}`;
