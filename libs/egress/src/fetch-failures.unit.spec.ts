import { BlockedAddressError } from './address-guard';
import { FETCH_FAILURE_MESSAGES, kindOfNetworkError, publicFailureMessage } from './fetch-failures';

const err = (code: string, message = code, syscall?: string) => Object.assign(new Error(message), { code, syscall });

describe('fetch failures', () => {
  it('classifies socket errors by their code', () => {
    expect(kindOfNetworkError(new BlockedAddressError('refused to connect to vm (127.0.0.1): not a public address'))).toBe('address_not_allowed');
    expect(kindOfNetworkError(err('ENOTFOUND', 'getaddrinfo ENOTFOUND vm.internal', 'getaddrinfo'))).toBe('name_not_resolved');
    expect(kindOfNetworkError(err('EAI_AGAIN', 'getaddrinfo EAI_AGAIN vm.internal', 'getaddrinfo'))).toBe('name_not_resolved');
    expect(kindOfNetworkError(err('ECONNREFUSED', 'queryA ECONNREFUSED vm.internal', 'queryA'))).toBe('name_not_resolved');
    expect(kindOfNetworkError(err('ETIMEOUT', 'queryA ETIMEOUT vm.internal', 'queryA'))).toBe('name_not_resolved');
    expect(kindOfNetworkError(err('ECONNREFUSED', 'connect ECONNREFUSED 10.0.0.1:80', 'connect'))).toBe('connection_refused');
    expect(kindOfNetworkError(err('ETIMEDOUT', 'connect ETIMEDOUT 10.0.0.1:443', 'connect'))).toBe('timeout');
    expect(kindOfNetworkError(err('ECONNRESET', 'read ECONNRESET', 'read'))).toBe('connection_failed');
    expect(kindOfNetworkError(err('EHOSTUNREACH', 'connect EHOSTUNREACH 10.0.0.1:80', 'connect'))).toBe('connection_failed');
    expect(kindOfNetworkError(err('ERR_TLS_CERT_ALTNAME_INVALID', "Hostname/IP does not match certificate's altnames: IP: 10.0.0.1 is not in the cert's list"))).toBe('tls_error');
    expect(kindOfNetworkError(err('CERT_HAS_EXPIRED', 'certificate has expired'))).toBe('tls_error');
    expect(kindOfNetworkError(err('DEPTH_ZERO_SELF_SIGNED_CERT', 'self-signed certificate'))).toBe('tls_error');
    expect(kindOfNetworkError(new Error('socket hang up'))).toBe('connection_failed');
  });

  it('says it without a host, an address or the system’s error text, before and after redirects', () => {
    for (const kind of Object.keys(FETCH_FAILURE_MESSAGES) as (keyof typeof FETCH_FAILURE_MESSAGES)[]) {
      for (const redirected of [false, true]) {
        const message = publicFailureMessage(kind, redirected);
        expect(message).not.toMatch(/\d+\.\d+\.\d+\.\d+|E[A-Z]{4,}|getaddrinfo|localhost/);
        if (redirected) expect(message).toMatch(/redirect/);
      }
    }
    expect(publicFailureMessage('address_not_allowed', false)).toMatch(/^address not allowed/);
    expect(publicFailureMessage('name_not_resolved', false)).toMatch(/^name not resolved/);
  });
});
