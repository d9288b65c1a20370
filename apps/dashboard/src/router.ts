import { useEffect, useState } from 'preact/hooks';

/** The pages, in the navigation's order. */
export const PAGES = [
  { id: 'overview', label: 'Overview' },
  { id: 'answers', label: 'Answers' },
  { id: 'citations', label: 'Citations & prompts' },
  { id: 'bots', label: 'AI bots' },
  { id: 'channels', label: 'Channels' },
  { id: 'opportunities', label: 'Opportunities' },
  { id: 'webhooks', label: 'Webhooks' },
] as const;
export type PageId = (typeof PAGES)[number]['id'];

/**
 * Where the user is: everything a view needs is in its URL (`/app/brands/1/overview?from=…&to=…`),
 * so a view can be shared and reloaded.
 */
export interface Route {
  /** The brand id as written in the URL (checked against the API, never trusted). */
  brandId: string | null;
  page: PageId | null;
  /** A sub-resource (an opportunity id), or null. */
  id: string | null;
  params: URLSearchParams;
  /** Whether the path is one the app knows. */
  known: boolean;
}

export function parseRoute(loc: { pathname: string; search: string } = location): Route {
  const params = new URLSearchParams(loc.search);
  const parts = loc.pathname.replace(/^\/app\/?/, '').split('/').filter(Boolean).map(decodeURIComponent);
  if (parts.length === 0) return { brandId: null, page: null, id: null, params, known: true };
  if (parts[0] !== 'brands' || parts.length < 2) return { brandId: null, page: null, id: null, params, known: false };
  const page = (parts[2] ?? 'overview') as PageId;
  const known = PAGES.some((p) => p.id === page) && parts.length <= (page === 'opportunities' ? 4 : 3);
  return { brandId: parts[1], page, id: parts[3] ?? null, params, known };
}

export function pathFor(brandId: string | number, page: PageId, id?: string | number | null, params?: URLSearchParams | Record<string, string | null | undefined>): string {
  let query = '';
  if (params) {
    const u = params instanceof URLSearchParams ? new URLSearchParams(params) : new URLSearchParams();
    if (!(params instanceof URLSearchParams)) for (const [k, v] of Object.entries(params)) if (v) u.set(k, v);
    query = u.toString();
  }
  return `/app/brands/${encodeURIComponent(String(brandId))}/${page}${id != null ? `/${encodeURIComponent(String(id))}` : ''}${query ? `?${query}` : ''}`;
}

const listeners = new Set<() => void>();

export function navigate(url: string, options: { replace?: boolean } = {}): void {
  if (url === location.pathname + location.search) return;
  if (options.replace) history.replaceState(null, '', url);
  else history.pushState(null, '', url);
  listeners.forEach((l) => l());
}

/** Updates some query parameters of the current URL (null removes one). */
export function setParams(changes: Record<string, string | null>, options: { replace?: boolean } = {}): void {
  const u = new URLSearchParams(location.search);
  for (const [k, v] of Object.entries(changes)) {
    if (v === null || v === '') u.delete(k);
    else u.set(k, v);
  }
  const q = u.toString();
  navigate(location.pathname + (q ? `?${q}` : ''), options);
}

/** The current route, re-rendered on navigation (links, back and forward). */
export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute());
  useEffect(() => {
    const update = () => setRoute(parseRoute());
    listeners.add(update);
    addEventListener('popstate', update);
    return () => {
      listeners.delete(update);
      removeEventListener('popstate', update);
    };
  }, []);
  return route;
}

/** Same-origin link clicks under /app navigate in place (the page is not reloaded). */
export function interceptLinks(root: HTMLElement): void {
  root.addEventListener('click', (event) => {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    const a = (event.target as Element | null)?.closest?.('a');
    if (!a || a.target || a.hasAttribute('download')) return;
    const url = new URL(a.href, location.href);
    if (url.origin !== location.origin || !url.pathname.startsWith('/app')) return;
    event.preventDefault();
    navigate(url.pathname + url.search);
    if (!url.hash) window.scrollTo(0, 0);
  });
}
