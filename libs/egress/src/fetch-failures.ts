import { BlockedAddressError } from './address-guard';

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

/** The same sentence when the failure came after redirects: what was refused is where the page sent us. */
export function publicFailureMessage(kind: FetchFailureKind, redirected: boolean): string {
  const message = FETCH_FAILURE_MESSAGES[kind];
  if (!redirected) return message;
  switch (kind) {
    case 'invalid_url':
      return 'redirected to a URL that is not an absolute http(s) URL without credentials';
    case 'address_not_allowed':
      return 'address not allowed: redirected to a host that is, or resolves to, an address that is not public (private, loopback, link-local or reserved)';
    case 'host_not_allowed':
      return 'host not allowed: redirected to a host outside the hosts this fetch may reach';
    case 'name_not_resolved':
      return 'name not resolved: redirected to a host name that has no address';
    default:
      return `${message} (after a redirect)`;
  }
}

/** DNS failures (getaddrinfo's and c-ares' codes). */
const NAME_CODES = new Set(['ENOTFOUND', 'ENODATA', 'EAI_AGAIN', 'EAI_NONAME', 'EAI_NODATA', 'EAI_FAIL', 'ESERVFAIL', 'EREFUSED', 'ETIMEOUT', 'ENONAME', 'EBADNAME', 'EFORMERR', 'ENOTIMP', 'EBADRESP', 'ECANCELLED', 'EDESTRUCTION']);

/**
 * The kind of a socket-level error of a request (its `error` event): the guard's refusal, a DNS
 * failure, a refused or broken connection, a TLS failure, a connect timeout.
 */
export function kindOfNetworkError(error: NodeJS.ErrnoException): FetchFailureKind {
  if (error instanceof BlockedAddressError) return 'address_not_allowed';
  const code = String(error.code ?? '');
  if (error.syscall === 'getaddrinfo' || error.syscall?.startsWith('query') || NAME_CODES.has(code)) return 'name_not_resolved';
  if (code === 'ECONNREFUSED') return 'connection_refused';
  if (code === 'ETIMEDOUT') return 'timeout';
  if (/^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|HOSTNAME_MISMATCH|ERR_OSSL)/.test(code) || /SSL|TLS/.test(error.message ?? '')) return 'tls_error';
  // ECONNRESET, EPIPE, EHOSTUNREACH, ENETUNREACH, a socket hang up, …
  return 'connection_failed';
}
