import { useCallback, useEffect, useState } from 'preact/hooks';
import { api, ApiError } from './api';

export type Loaded<T> = { state: 'loading' } | { state: 'error'; error: ApiError } | { state: 'ok'; data: T };

/**
 * Reads API paths (GET) for a view: loading, then every answer or the first error. A null path
 * is "nothing to read" and gives null. `reload` asks again (after a write the cache is empty).
 */
export function useApi<T extends unknown[]>(paths: { [K in keyof T]: string | null }): Loaded<T> & { reload: () => void } {
  const [loaded, setLoaded] = useState<Loaded<T>>({ state: 'loading' });
  const [tick, setTick] = useState(0);
  const key = JSON.stringify(paths);
  useEffect(() => {
    let live = true;
    setLoaded({ state: 'loading' });
    Promise.all(paths.map((p) => (p === null ? Promise.resolve(null) : api.get(p))))
      .then((data) => live && setLoaded({ state: 'ok', data: data as T }))
      .catch((error: unknown) => live && setLoaded({ state: 'error', error: error instanceof ApiError ? error : new ApiError(0, 'CLIENT_ERROR', String(error), null, null) }));
    return () => {
      live = false;
    };
  }, [key, tick]);
  const reload = useCallback(() => setTick((t) => t + 1), []);
  return { ...loaded, reload };
}
