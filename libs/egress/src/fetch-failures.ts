import { BlockedAddressError } from './address-guard';
import { FETCH_FAILURE_MESSAGES, type FetchFailureKind } from './fetch-failure-messages';

export { FETCH_FAILURE_MESSAGES, type FetchFailureKind } from './fetch-failure-messages';

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
