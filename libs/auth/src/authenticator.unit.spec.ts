import type { AppConfig } from '@libs/config';
import type { AccessTokensRepository } from './access-tokens.repository';
import type { ApiKeysRepository } from './api-keys.repository';
import { Authenticator } from './authenticator.service';
import { CredentialCache } from './credential-cache';
import { generateApiKey, sha256 } from './domain/api-key-format';
import type { Principal } from './principal';

const principal: Principal = {
  kind: 'api_key',
  organizationId: 1,
  clientId: null,
  scopes: ['read:visibility'],
  tier: 'enterprise',
  keyId: 7,
  oauthClientId: null,
  subject: 'key:7',
  actor: 'key:7',
  expiresAt: null,
};

/** An Authenticator over a real CredentialCache (no Redis: revocations are told to it directly) and a key lookup the test resolves by hand. */
function setup() {
  const lookups: { hash: string; resolve: (p: Principal | null) => void; reject: (e: Error) => void }[] = [];
  const keys = {
    principalFor: (hash: Buffer) => new Promise<Principal | null>((resolve, reject) => lookups.push({ hash: hash.toString('hex'), resolve, reject })),
  } as unknown as ApiKeysRepository;
  const cache = new CredentialCache({ redisPrefix: 'test' } as AppConfig);
  const auth = new Authenticator(keys, {} as AccessTokensRepository, cache);
  const key = generateApiKey();
  const call = () => auth.authenticate({ 'x-api-key': key }, '127.0.0.1');
  const settled = <T>(p: Promise<T>) => p.then((v) => ({ ok: v }), (e: Error) => ({ error: e.message }));
  return { lookups, cache, key, call, settled, flush: () => new Promise((r) => setImmediate(r)) };
}

describe('Authenticator: one lookup per credential at a time', () => {
  it('answers concurrent requests of a credential not cached from one database lookup, then from the cache', async () => {
    const { lookups, key, call, flush } = setup();
    const pending = [call(), call(), call()];
    await flush();
    expect(lookups.map((l) => l.hash)).toEqual([sha256(key).toString('hex')]);
    lookups[0].resolve(principal);
    expect(await Promise.all(pending)).toEqual([principal, principal, principal]);
    expect(await call()).toBe(principal);
    expect(lookups).toHaveLength(1);
  });

  it('does not let a request that arrives after a revocation join a lookup started before it', async () => {
    const { lookups, cache, key, call, flush, settled } = setup();
    const before = settled(call());
    await flush();
    cache.forget(sha256(key).toString('hex'));
    const after = settled(call());
    await flush();
    expect(lookups).toHaveLength(2);
    lookups[1].resolve(null); // revoked: the lookup started after the revocation finds no key
    lookups[0].resolve(principal);
    expect(await before).toEqual({ ok: principal });
    expect(await after).toEqual({ error: 'The API key or token is invalid, expired or revoked' });
  });

  it('gives every waiting request the failure of the lookup, and looks up again on the next request', async () => {
    const { lookups, call, flush, settled } = setup();
    const pending = [settled(call()), settled(call())];
    await flush();
    lookups[0].reject(new Error('connection terminated'));
    expect(await Promise.all(pending)).toEqual([{ error: 'connection terminated' }, { error: 'connection terminated' }]);
    const next = call();
    await flush();
    expect(lookups).toHaveLength(2);
    lookups[1].resolve(principal);
    expect(await next).toBe(principal);
  });
});
