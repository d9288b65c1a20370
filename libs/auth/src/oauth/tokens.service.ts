import { Inject, Injectable } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { DataSource, type EntityManager } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '@libs/config';
import { REDIS } from '@libs/redis';
import { publishRevocation } from '../credential-cache';
import { randomSecret, sha256 } from '../domain/api-key-format';
import type { Scope } from '../domain/scopes';
import { AuthorizationCodesRepository } from './authorization-codes.repository';
import { ACCESS_TOKEN_TTL_SECONDS, REFRESH_TOKEN_TTL_SECONDS } from './lifetimes';
import type { OAuthClient } from './oauth-clients.repository';
import { OAuthError } from './oauth-errors';
import { verifyPkce } from './pkce';
import { requestedScopes } from './scopes';

export const ACCESS_TOKEN_PREFIX = 'oat_';
export const REFRESH_TOKEN_PREFIX = 'ort_';

/** RFC 6749 §5.1 token response. */
export interface TokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token?: string;
  scope: string;
}

interface Grant {
  client: OAuthClient;
  organizationId: number;
  /** The tenancy client the tokens are bound to (inherited from the approving key), or null. */
  clientId: number | null;
  scopes: Scope[];
  /** Scopes of the refresh token when they differ from the access token's (a narrowed refresh). */
  refreshScopes?: Scope[];
  /** The refresh family; null issues no refresh token (client_credentials). */
  familyId: string | null;
}

interface RefreshRow {
  id: string;
  organization_id: string;
  client_id: string | null;
  scopes: Scope[];
  family_id: string;
}

/** Issues, rotates and revokes OAuth tokens. Tokens are opaque random strings stored as SHA-256. */
@Injectable()
export class TokensService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly codes: AuthorizationCodesRepository,
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** client_credentials: an access token only (RFC 6749 §4.4.3: no refresh token). */
  async clientCredentials(client: OAuthClient, scope: string | undefined): Promise<TokenResponse> {
    const scopes = requestedScopes(scope, client.scopes);
    return this.issue(this.dataSource.manager, { client, organizationId: client.organizationId, clientId: null, scopes, familyId: null });
  }

  /**
   * authorization_code with PKCE S256: the code is consumed whatever the outcome. A code presented
   * again revokes every token issued from it (RFC 6749 §4.1.2): whoever holds it twice, one of
   * them is not its owner.
   */
  async authorizationCode(client: OAuthClient, input: { code: string; redirectUri: string; codeVerifier: string }): Promise<TokenResponse> {
    const code = await this.codes.consume(input.code);
    if (!code) {
      const family = await this.codes.familyOfUsed(input.code);
      if (family !== null) {
        await this.revokeFamily(family);
        throw OAuthError.invalidGrant('The authorization code was used already; every token issued from it has been revoked');
      }
    }
    if (!code || code.oauthClientId !== client.id) throw OAuthError.invalidGrant('The authorization code is invalid, was used already or was issued to another client');
    if (code.expired) throw OAuthError.invalidGrant('The authorization code has expired');
    if (code.redirectUri !== input.redirectUri) throw OAuthError.invalidGrant('redirect_uri does not match the one of the authorization request');
    if (!verifyPkce(input.codeVerifier, code.codeChallenge)) throw OAuthError.invalidGrant('code_verifier does not match the code_challenge');
    if (!code.approverLive) throw OAuthError.invalidGrant('The API key that approved this request has been revoked or has expired');
    return this.issue(this.dataSource.manager, {
      client,
      organizationId: code.organizationId,
      clientId: code.approverClientId,
      scopes: code.scopes,
      familyId: code.familyId,
    });
  }

  /**
   * refresh_token with rotation: the presented token is marked rotated and a new pair is issued
   * in the same family. Presenting a rotated token again is treated as theft: the whole family
   * (every refresh and access token descended from the same grant) is revoked.
   */
  async refresh(client: OAuthClient, input: { refreshToken: string; scope: string | undefined }): Promise<TokenResponse> {
    const hash = sha256(input.refreshToken);
    const issued = await this.dataSource.transaction(async (m) => {
      const rows: RefreshRow[] = await m.query(
        `WITH u AS (
           UPDATE oauth_tokens SET rotated_at = now()
            WHERE token_hash = $1 AND kind = 'refresh' AND oauth_client_id = $2 AND rotated_at IS NULL AND revoked_at IS NULL AND expires_at > now()
            RETURNING id, organization_id, client_id, scopes, family_id)
         SELECT * FROM u`,
        [hash, client.id],
      );
      const row = rows[0];
      if (!row) return null;
      const scopes = requestedScopes(input.scope, row.scopes);
      return this.issue(m, {
        client,
        organizationId: Number(row.organization_id),
        clientId: row.client_id === null ? null : Number(row.client_id),
        scopes,
        refreshScopes: row.scopes,
        familyId: row.family_id,
      });
    });
    if (issued) return issued;
    const reused: { family_id: string }[] = await this.dataSource.query(
      `SELECT family_id FROM oauth_tokens WHERE token_hash = $1 AND kind = 'refresh' AND oauth_client_id = $2 AND rotated_at IS NOT NULL AND revoked_at IS NULL`,
      [hash, client.id],
    );
    if (reused.length) {
      await this.revokeFamily(reused[0].family_id);
      throw OAuthError.invalidGrant('The refresh token was used already; every token issued from it has been revoked');
    }
    throw OAuthError.invalidGrant('The refresh token is invalid, expired, revoked or was issued to another client');
  }

  /**
   * RFC 7009: revokes an access token, or a refresh token with its whole family, when it was
   * issued to this client. An unknown token, or another client's, is ignored (the caller gets 200 either way).
   */
  async revoke(client: OAuthClient, token: string): Promise<void> {
    const rows: { id: string; kind: 'access' | 'refresh'; family_id: string | null; token_hash: Buffer }[] = await this.dataSource.query(
      `SELECT id, kind, family_id, token_hash FROM oauth_tokens WHERE token_hash = $1 AND oauth_client_id = $2`,
      [sha256(token), client.id],
    );
    const row = rows[0];
    if (!row) return;
    if (row.kind === 'refresh' && row.family_id) {
      await this.revokeFamily(row.family_id);
      return;
    }
    await this.dataSource.query(`UPDATE oauth_tokens SET revoked_at = COALESCE(revoked_at, now()) WHERE id = $1`, [row.id]);
    if (row.kind === 'access') await this.publish([row.token_hash]);
  }

  private async revokeFamily(familyId: string): Promise<void> {
    const access: { token_hash: Buffer }[] = await this.dataSource.query(
      `WITH u AS (UPDATE oauth_tokens SET revoked_at = COALESCE(revoked_at, now()) WHERE family_id = $1 RETURNING token_hash, kind)
       SELECT token_hash FROM u WHERE kind = 'access'`,
      [familyId],
    );
    await this.publish(access.map((a) => a.token_hash));
  }

  /** Every API process forgets the tokens at once (and within the cache TTL if the message is lost). */
  private async publish(hashes: Buffer[]): Promise<void> {
    await Promise.all(hashes.map((h) => publishRevocation(this.redis, this.config.redisPrefix, h).catch(() => undefined)));
  }

  private async issue(m: EntityManager, grant: Grant): Promise<TokenResponse> {
    const accessToken = randomSecret(ACCESS_TOKEN_PREFIX, 32);
    const values: unknown[] = [sha256(accessToken), 'access', grant.client.id, grant.organizationId, grant.clientId, grant.scopes, grant.familyId, ACCESS_TOKEN_TTL_SECONDS];
    let sql = `INSERT INTO oauth_tokens (token_hash, kind, oauth_client_id, organization_id, client_id, scopes, family_id, expires_at)
               VALUES ($1, $2, $3, $4, $5, $6, $7, now() + make_interval(secs => $8))`;
    let refreshToken: string | undefined;
    if (grant.familyId) {
      refreshToken = randomSecret(REFRESH_TOKEN_PREFIX, 32);
      values.push(sha256(refreshToken), 'refresh', grant.refreshScopes ?? grant.scopes, REFRESH_TOKEN_TTL_SECONDS);
      sql += `, ($9, $10, $3, $4, $5, $11, $7, now() + make_interval(secs => $12))`;
    }
    await m.query(sql, values);
    return {
      access_token: accessToken,
      token_type: 'Bearer',
      expires_in: ACCESS_TOKEN_TTL_SECONDS,
      ...(refreshToken ? { refresh_token: refreshToken } : {}),
      scope: grant.scopes.join(' '),
    };
  }
}
