import { Inject, Injectable, Optional } from '@nestjs/common';
import { ApiError } from '@libs/http';
import { isWellFormedApiKey, sha256 } from './domain/api-key-format';
import { AccessTokensRepository } from './access-tokens.repository';
import { ApiKeysRepository } from './api-keys.repository';
import { CredentialCache } from './credential-cache';
import type { Principal } from './principal';

/** Hooks for limiting failed authentication per client address (provided by the rate-limit module). */
export interface AuthFailureLimiter {
  /** Throws (429) when the address has failed too often recently. */
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

  constructor(
    private readonly keys: ApiKeysRepository,
    private readonly tokens: AccessTokensRepository,
    private readonly cache: CredentialCache,
    @Optional() @Inject(AUTH_FAILURE_LIMITER) private readonly failures?: AuthFailureLimiter,
  ) {}

  async authenticate(headers: Record<string, string | string[] | undefined>, address: string): Promise<Principal> {
    const apiKey = headers['x-api-key'];
    const authorization = headers['authorization'];
    if (apiKey === undefined && authorization === undefined) throw ApiError.unauthorized();
    await this.failures?.assertAllowed(address);
    const principal = await this.lookup(apiKey, authorization);
    if (!principal) {
      await this.failures?.recordFailure(address);
      throw ApiError.unauthorized('The API key or token is invalid, expired or revoked');
    }
    return principal;
  }

  private async lookup(apiKey: string | string[] | undefined, authorization: string | string[] | undefined): Promise<Principal | null> {
    if (typeof apiKey === 'string') {
      const known = this.hashes.get(apiKey); // a key recently found valid was well formed
      if (known === undefined && !isWellFormedApiKey(apiKey)) return null;
      return this.cached(apiKey, known, (hash) => this.keys.principalFor(hash));
    }
    if (typeof authorization === 'string') {
      const m = BEARER.exec(authorization);
      if (!m) return null;
      return this.cached(m[1], this.hashes.get(m[1]), (hash) => this.tokens.principalFor(hash));
    }
    return null;
  }

  /** `known`: the secret's hash from the memo, if it has one. */
  private async cached(secret: string, known: string | undefined, load: (hash: Buffer) => Promise<Principal | null>): Promise<Principal | null> {
    const hex = known ?? sha256(secret).toString('hex');
    const hit = this.cache.get(hex);
    if (hit) return hit;
    const principal = await load(Buffer.from(hex, 'hex'));
    if (principal) {
      this.cache.set(hex, principal);
      if (this.hashes.size >= MAX_REMEMBERED_HASHES) this.hashes.clear();
      this.hashes.set(secret, hex);
    }
    return principal;
  }
}
