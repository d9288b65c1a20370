/**
 * Why a guarded fetch gave no response: a stable code a caller may show its users (page audits
 * record it as the page's `reasonCode`), each with a public sentence that names no host and no
 * address. The detail (which host, which address, the system's error) stays in the failure's
 * `reason`, for logs only: a customer's URL must not tell them how our network resolves names or
 * which internal addresses exist.
 */
export type FetchFailureKind =
  /** Not an absolute http(s) URL without credentials (the URL asked for, or a redirect's Location). */
  | 'invalid_url'
  /** The host is an address, or resolves to one, that the guard refuses (private, loopback, link-local, metadata, …). */
  | 'address_not_allowed'
  /** The caller's host rule refused the host (e.g. outside a brand's domains), before any connection. */
  | 'host_not_allowed'
  /** The host name does not resolve (no such name, no address, or the resolver failed). */
  | 'name_not_resolved'
  | 'connection_refused'
  /** The connection broke (reset, unreachable network, closed mid-body). */
  | 'connection_failed'
  /** The TLS handshake failed (certificate not valid for the host, expired, untrusted, protocol). */
  | 'tls_error'
  | 'timeout'
  | 'too_large'
  | 'too_many_redirects'
  /** The body's Content-Encoding (gzip, deflate, br) could not be decoded. */
  | 'bad_content_encoding';

/** The public sentence of each kind (no host, no address, no system error text). */
export const FETCH_FAILURE_MESSAGES: Readonly<Record<FetchFailureKind, string>> = {
  invalid_url: 'the URL is not an absolute http(s) URL without credentials',
  address_not_allowed: 'address not allowed: the host is, or resolves to, an address that is not public (private, loopback, link-local or reserved)',
  host_not_allowed: 'host not allowed: the host is outside the hosts this fetch may reach',
  name_not_resolved: 'name not resolved: the host name has no address',
  connection_refused: 'connection refused by the server',
  connection_failed: 'the connection failed before a complete answer arrived',
  tls_error: 'the TLS connection failed (the certificate is not valid for the host, expired or untrusted, or the handshake failed)',
  timeout: 'timed out',
  too_large: 'the body is too large',
  too_many_redirects: 'too many redirects',
  bad_content_encoding: 'the body’s Content-Encoding could not be decoded',
};
