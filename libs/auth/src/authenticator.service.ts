import { Inject, Injectable, Optional } from '@nestjs/common';
import { ApiError } from '@libs/http';
import { isWellFormedApiKey, sha256 } from './domain/api-key-format';
import { AccessTokensRepository } from './access-tokens.repository';
import { ApiKeysRepository } from './api-keys.repository';
import { CredentialCache, type CredentialKind } from './credential-cache';
import type { Principal } from './principal';

/** Hooks for limiting failed authentication per client address (provided by the rate-limit module). */
export interface AuthFailureLimiter {
  /** Throws (429) when the address has failed too often recently (asked only once a credential proved invalid). */
  assertAllowed(address: string): Promise<void>;
  recordFailure(address: string): Promise<void>;
}
export const AUTH_FAILURE_LIMITER = Symbol('AUTH_FAILURE_LIMITER');

const BEARER = /^Bearer\s+([A-Za-z0-9._~+/-]+=*)\s*$/i;

const MAX_REMEMBERED_HASHES = 10_000;

/** Turns the request's credential (X-API-Key or a bearer token) into a principal, or 401. */
@Injectable()
export class Authenticator {
  /**
   * The SHA-256 (hex) of credentials recently found valid, by the credential as sent: a repeat
   * request skips the format check and the hash and goes straight to the credential cache, which
   * still decides (TTL, revocation by hash). Bounded; the process sees these secrets on every
   * request anyway, and they are never logged or sent anywhere.
   */
  private readonly hashes = new Map<string, string>();

  /**
   * The database lookup in flight per credential (`kind:hash`), with the cache's generation when
   * it started: when a cached credential expires, the requests that arrive before its lookup
   * returns wait for that one lookup instead of each sending its own (50 concurrent requests of
   * one key sent up to 50 identical statements every TTL). A request that arrives after the cache
   * forgot anything (a revocation) never joins a lookup started before: it sends its own.
   */
  private readonly loading = new Map<string, { generation: number; principal: Promise<Principal | null> }>();

  constructor(
    private readonly keys: ApiKeysRepository,
    private readonly tokens: AccessTokensRepository,
    private readonly cache: CredentialCache,
    @Optional() @Inject(AUTH_FAILURE_LIMITER) private readonly failures?: AuthFailureLimiter,
  ) {}

  /**
   * The principal of a valid credential, whatever its address has done: one attacker behind a
   * shared proxy cannot lock out everyone else there. A credential that is not valid is counted
   * against its address, and once the address has failed too often it is answered 429 instead of
   * 401, so guessing stays limited (and a 192-bit key is not guessed by chance).
   */
  async authenticate(headers: Record<string, string | string[] | undefined>, address: string): Promise<Principal> {
    const apiKey = headers['x-api-key'];
    const authorization = headers['authorization'];
    if (apiKey === undefined && authorization === undefined) throw ApiError.unauthorized();
    const principal = await this.lookup(apiKey, authorization);
    if (principal) return principal;
    await this.failures?.assertAllowed(address);
    await this.failures?.recordFailure(address);
    throw ApiError.unauthorized('The API key or token is invalid, expired or revoked');
  }

  private async lookup(apiKey: string | string[] | undefined, authorization: string | string[] | undefined): Promise<Principal | null> {
    if (typeof apiKey === 'string') {
      const known = this.hashes.get(apiKey); // a key recently found valid was well formed
      if (known === undefined && !isWellFormedApiKey(apiKey)) return null;
      return this.cached('api_key', apiKey, known, (hash) => this.keys.principalFor(hash));
    }
    if (typeof authorization === 'string') {
      const m = BEARER.exec(authorization);
      if (!m) return null;
      return this.cached('access_token', m[1], this.hashes.get(m[1]), (hash) => this.tokens.principalFor(hash));
    }
    return null;
  }

  /** `known`: the secret's hash from the memo, if it has one. */
  private async cached(kind: CredentialKind, secret: string, known: string | undefined, load: (hash: Buffer) => Promise<Principal | null>): Promise<Principal | null> {
    const hex = known ?? sha256(secret).toString('hex');
    const hit = this.cache.get(kind, hex);
    if (hit) return hit;
    const key = `${kind}:${hex}`;
    const generation = this.cache.generation;
    const inflight = this.loading.get(key);
    if (inflight && inflight.generation === generation) return inflight.principal;
    const principal = load(Buffer.from(hex, 'hex')).then((found) => {
      if (found) {
        this.cache.set(kind, hex, found);
        if (this.hashes.size >= MAX_REMEMBERED_HASHES) this.hashes.clear();
        this.hashes.set(secret, hex);
      }
      return found;
    });
    this.loading.set(key, { generation, principal });
    try {
      return await principal;
    } finally {
      if (this.loading.get(key)?.principal === principal) this.loading.delete(key);
    }
  }
}
