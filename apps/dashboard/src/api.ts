import { forgetKey, storedKey } from './session';

/** An error answer of the API, as the API words it (DESIGN §8), with the request's id. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly requestId: string | null,
    readonly details: Record<string, unknown> | null,
  ) {
    super(message);
  }
}

type Listener = () => void;
const unauthorizedListeners = new Set<Listener>();
const waitListeners = new Set<(seconds: number | null) => void>();

/** Called when the API refuses the key (401): the app returns to sign-in. */
export function onUnauthorized(listener: Listener): () => void {
  unauthorizedListeners.add(listener);
  return () => unauthorizedListeners.delete(listener);
}

/** Called with the seconds left while a request waits out a 429 (null when it is over). */
export function onRateLimitWait(listener: (seconds: number | null) => void): () => void {
  waitListeners.add(listener);
  return () => waitListeners.delete(listener);
}

/** A request waits out 429s (each for its Retry-After) up to this many seconds in all; past that, or for a longer Retry-After, the error is shown. */
const MAX_WAIT_SECONDS = 120;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function waitOut(seconds: number): Promise<void> {
  for (let left = seconds; left > 0; left--) {
    waitListeners.forEach((l) => l(left));
    await sleep(1000);
  }
  waitListeners.forEach((l) => l(null));
}

async function toError(res: Response): Promise<ApiError> {
  const requestId = res.headers.get('x-request-id');
  let body: unknown = null;
  try {
    body = await res.json();
  } catch {
    /* not JSON */
  }
  const e = (body as { error?: { code?: string; message?: string; details?: Record<string, unknown> } } | null)?.error;
  return new ApiError(res.status, e?.code ?? `HTTP_${res.status}`, e?.message ?? (res.statusText || `The API answered ${res.status}`), requestId, e?.details ?? null);
}

/** GET answers kept for this session (by path), so going back to a page shows it at once; a write clears them. */
const cache = new Map<string, Promise<unknown>>();

export function clearCache(): void {
  cache.clear();
}

async function send<T>(method: string, path: string, body?: unknown, key = storedKey()): Promise<T> {
  if (!key) throw new ApiError(401, 'UNAUTHORIZED', 'Sign in with an API key first.', null, null);
  let waited = 0;
  for (;;) {
    let res: Response;
    try {
      res = await fetch(`/api/v1${path}`, {
        method,
        headers: { 'x-api-key': key, accept: 'application/json', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
        credentials: 'omit',
        cache: 'no-store',
        referrerPolicy: 'no-referrer',
      });
    } catch (e) {
      throw new ApiError(0, 'NETWORK_ERROR', `The API could not be reached (${e instanceof Error ? e.message : String(e)}).`, null, null);
    }
    if (res.status === 429) {
      const wait = Number(res.headers.get('retry-after'));
      const seconds = Math.max(1, Math.ceil(wait));
      if (Number.isFinite(wait) && wait >= 0 && waited + seconds <= MAX_WAIT_SECONDS) {
        waited += seconds;
        await waitOut(seconds);
        continue;
      }
    }
    if (!res.ok) {
      const error = await toError(res);
      if (res.status === 401 && key === storedKey()) {
        forgetKey();
        clearCache();
        unauthorizedListeners.forEach((l) => l());
      }
      throw error;
    }
    return (await res.json()) as T;
  }
}

export const api = {
  get<T>(path: string): Promise<T> {
    let p = cache.get(path) as Promise<T> | undefined;
    if (!p) {
      p = send<T>('GET', path);
      cache.set(path, p);
      // A failure is not kept: the next visit asks again.
      p.catch(() => cache.delete(path));
    }
    return p;
  },
  async post<T>(path: string, body?: unknown): Promise<T> {
    try {
      return await send<T>('POST', path, body ?? {});
    } finally {
      clearCache();
    }
  },
  /** POST /validate-key with a key not yet stored (sign-in). */
  validate<T>(key: string): Promise<T> {
    return send<T>('POST', '/validate-key', {}, key);
  },
};

/** A query string of the defined, non-empty parameters. */
export function qs(params: Record<string, string | number | boolean | null | undefined>): string {
  const u = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== '') u.set(k, String(v));
  const s = u.toString();
  return s ? `?${s}` : '';
}
