import { OAuthError } from './oauth-errors';
import type { OAuthParams } from './oauth-params';

export interface PresentedClientCredentials {
  clientId: string;
  clientSecret: string;
  /** How the client sent them: HTTP Basic (RFC 6749 §2.3.1) or in the body (JSON or form). */
  method: 'basic' | 'body';
}

const BASIC = /^Basic\s+([A-Za-z0-9+/]+={0,2})\s*$/i;

/** RFC 6749 §2.3.1: the id and secret are form-urlencoded before Basic encoding. */
function formDecode(text: string): string {
  return decodeURIComponent(text.replace(/\+/g, ' '));
}

/**
 * The client's id and secret from `Authorization: Basic` or from the body's `client_id` and
 * `client_secret`. Missing or undecodable credentials are `invalid_client` (401); using both
 * methods at once is `invalid_request` (§2.3: a client MUST NOT use more than one).
 */
export function presentedClientCredentials(authorization: string | string[] | undefined, params: OAuthParams): PresentedClientCredentials {
  const basic = typeof authorization === 'string' ? BASIC.exec(authorization) : null;
  if (basic) {
    const decoded = Buffer.from(basic[1], 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) throw OAuthError.invalidClient(true, 'The Basic credentials are malformed');
    let clientId: string;
    let clientSecret: string;
    try {
      clientId = formDecode(decoded.slice(0, colon));
      clientSecret = formDecode(decoded.slice(colon + 1));
    } catch {
      throw OAuthError.invalidClient(true, 'The Basic credentials are malformed');
    }
    if (params.client_secret !== undefined) throw OAuthError.invalidRequest('Send the client credentials either with HTTP Basic or in the body, not both');
    if (params.client_id !== undefined && params.client_id !== clientId) throw OAuthError.invalidRequest('client_id in the body differs from the Basic credentials');
    if (!clientId || !clientSecret) throw OAuthError.invalidClient(true);
    return { clientId, clientSecret, method: 'basic' };
  }
  if (params.client_id === undefined || params.client_secret === undefined) {
    throw OAuthError.invalidClient(false, 'Client authentication failed: send client_id and client_secret (in the body or with HTTP Basic)');
  }
  return { clientId: params.client_id, clientSecret: params.client_secret, method: 'body' };
}
