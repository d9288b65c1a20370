import { Inject, Injectable, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { Redis } from 'ioredis';
import { APP_CONFIG, type AppConfig } from '@libs/config';
import { RedisSubscriber } from '@libs/redis';
import type { Principal } from './principal';

/** How long a cached credential is trusted without asking the database again. */
export const CREDENTIAL_CACHE_TTL_MS = 5_000;
const MAX_ENTRIES = 50_000;

/** Which table a credential was found in: an API key, or an OAuth access token. */
export type CredentialKind = 'api_key' | 'access_token';

/**
 * In-process cache of authenticated credentials, keyed by kind and the credential's SHA-256 (hex):
 * a key found valid is never taken as a token, or a token as a key. A
 * revocation is published on Redis and evicts the entry in every API process at once; the short
 * TTL bounds the window even if that message is lost, so a revoked key cannot outlive its
 * revocation by more than a few seconds anywhere.
 */
@Injectable()
export class CredentialCache implements OnModuleInit, OnApplicationShutdown {
  private readonly entries = new Map<string, { principal: Principal; until: number }>();
  private subscriber: RedisSubscriber | null = null;
  readonly channel: string;
  /**
   * Counts what this cache has been told to forget (a revocation, or everything): a lookup of a
   * credential started before a revocation must not answer a request that arrives after it.
   */
  private forgotten = 0;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {
    this.channel = `${config.redisPrefix}:credentials:revoked`;
  }

  async onModuleInit(): Promise<void> {
    this.subscriber = await RedisSubscriber.open(this.config, {
      channels: { [this.channel]: (hash) => (hash === '*' ? this.forgetAll() : this.forget(hash)) },
      // After a reconnect, messages may have been missed: forget everything.
      onReady: () => this.forgetAll(),
    });
  }

  /** Changes whenever the cache forgets a credential or everything (compare two readings). */
  get generation(): number {
    return this.forgotten;
  }

  onApplicationShutdown(): void {
    this.subscriber?.close();
  }

  get(kind: CredentialKind, hash: string): Principal | null {
    const key = `${kind}:${hash}`;
    const e = this.entries.get(key);
    if (!e) return null;
    if (e.until <= Date.now()) {
      this.entries.delete(key);
      return null;
    }
    return e.principal;
  }

  set(kind: CredentialKind, hash: string, principal: Principal): void {
    if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value as string);
    const expires = principal.expiresAt?.getTime() ?? Infinity;
    this.entries.set(`${kind}:${hash}`, { principal, until: Math.min(Date.now() + CREDENTIAL_CACHE_TTL_MS, expires) });
  }

  /** Forgets a credential, of either kind. */
  forget(hash: string): void {
    this.forgotten++;
    this.entries.delete(`api_key:${hash}`);
    this.entries.delete(`access_token:${hash}`);
  }

  private forgetAll(): void {
    this.forgotten++;
    this.entries.clear();
  }
}

/** Tells every API process to forget a credential (by its SHA-256), e.g. after revocation. */
export async function publishRevocation(redis: Redis, prefix: string, hash: Buffer | '*'): Promise<void> {
  await redis.publish(`${prefix}:credentials:revoked`, hash === '*' ? '*' : hash.toString('hex'));
}
