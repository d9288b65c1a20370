/**
 * The API key, typed once: held in sessionStorage (this tab, until it closes or the user signs
 * out), never in a cookie, a URL or a log. Only X-API-Key headers carry it.
 */
const KEY = 'aov.dashboard.apiKey';

export interface KeyInfo {
  organizationId: number;
  scopes: string[];
  tier: string;
  clientId: number | null;
}

export function storedKey(): string | null {
  try {
    return sessionStorage.getItem(KEY);
  } catch {
    return null;
  }
}

export function storeKey(key: string): void {
  sessionStorage.setItem(KEY, key);
}

export function forgetKey(): void {
  sessionStorage.removeItem(KEY);
}
