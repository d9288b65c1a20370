import type { Scope } from './domain/scopes';
import type { Tier } from './domain/tiers';

/** Who is calling: an API key, or an OAuth client through a bearer token. */
export interface Principal {
  kind: 'api_key' | 'oauth';
  organizationId: number;
  /** The client the credential is bound to (it then sees that client's brands only). */
  clientId: number | null;
  scopes: readonly Scope[];
  tier: Tier;
  /** api_keys.id for a key, null for a token. */
  keyId: number | null;
  /** oauth_clients.id for a token, null for a key. */
  oauthClientId: number | null;
  /** What rate limits and usage are counted against: `key:<id>` or `oauth:<id>`. */
  subject: string;
  /** Written into event metadata as the actor. */
  actor: string;
  /** The credential expires at (cache entries never outlive it). */
  expiresAt: Date | null;
}

export function hasScope(principal: Principal, scope: Scope): boolean {
  return principal.scopes.includes(scope);
}
