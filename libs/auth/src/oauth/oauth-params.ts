import { OAuthError } from './oauth-errors';

export type OAuthParams = Record<string, string>;

/**
 * The request's parameters (a JSON object or a form-encoded body) as single strings.
 * A repeated parameter or a non-string value is `invalid_request` (RFC 6749 §3.2: parameters
 * MUST NOT be included more than once); an empty value counts as omitted (§3.1).
 */
export function readOAuthParams(...sources: unknown[]): OAuthParams {
  const out: OAuthParams = {};
  for (const source of sources) {
    if (source === undefined || source === null) continue;
    if (typeof source !== 'object' || Array.isArray(source)) throw OAuthError.invalidRequest('The body must be a JSON object or a form-encoded body');
    for (const [name, value] of Object.entries(source as Record<string, unknown>)) {
      if (Array.isArray(value)) throw OAuthError.invalidRequest(`The parameter ${name} is repeated`);
      if (value === undefined || value === null || value === '') continue;
      if (typeof value !== 'string') throw OAuthError.invalidRequest(`The parameter ${name} must be a string`);
      if (name in out && out[name] !== value) throw OAuthError.invalidRequest(`The parameter ${name} is given twice with different values`);
      out[name] = value;
    }
  }
  return out;
}
