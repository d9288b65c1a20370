import { isScope, type Scope } from '../domain/scopes';
import { OAuthError } from './oauth-errors';

/**
 * The scopes a request asks for (space-separated, RFC 6749 §3.3), which must all be among
 * `allowed`; `undefined` (no `scope` parameter) means all of `allowed`. Unknown or excess
 * scopes are `invalid_scope`.
 */
export function requestedScopes(scope: string | undefined, allowed: readonly Scope[]): Scope[] {
  if (scope === undefined) return [...allowed];
  const items = [...new Set(scope.split(' ').filter(Boolean))];
  if (!items.length) return [...allowed];
  const unknown = items.filter((s) => !isScope(s));
  if (unknown.length) throw OAuthError.invalidScope(`Unknown scope(s): ${unknown.join(' ')}`);
  const excess = items.filter((s) => !allowed.includes(s as Scope));
  if (excess.length) throw OAuthError.invalidScope(`Scope(s) not granted to this client: ${excess.join(' ')}`);
  return items as Scope[];
}
