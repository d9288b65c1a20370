/**
 * Which redirect URIs a client may register: absolute, without a fragment (RFC 6749 §3.1.2),
 * https, http only on a loopback host (RFC 8252 §7.3), or a private-use scheme with a dot
 * (`com.example.app:/callback`, RFC 8252 §7.1). Matching at authorization time is exact.
 */
export function redirectUriProblem(uri: string): string | null {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return `"${uri}" is not an absolute URI`;
  }
  if (uri.includes('#')) return `"${uri}" must not contain a fragment`;
  if (url.username || url.password) return `"${uri}" must not contain credentials`;
  const scheme = url.protocol.slice(0, -1);
  if (scheme === 'https') return null;
  if (scheme === 'http') return ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname) ? null : `"${uri}": http is allowed on a loopback host only; use https`;
  if (/^[a-z][a-z0-9+.-]*\.[a-z0-9+.-]+$/.test(scheme) && !['javascript', 'data', 'file', 'vbscript'].includes(scheme)) return null;
  return `"${uri}" must use https (http on loopback, or a private-use scheme such as com.example.app:)`;
}

/** `redirect_uri` plus the authorization response parameters (RFC 6749 §4.1.2), keeping its own query. */
export function withParameters(redirectUri: string, params: Record<string, string | undefined>): string {
  const url = new URL(redirectUri);
  for (const [k, v] of Object.entries(params)) if (v !== undefined) url.searchParams.append(k, v);
  return url.toString();
}
