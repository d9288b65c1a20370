import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { randomSecret, sha256 } from '../domain/api-key-format';
import type { Scope } from '../domain/scopes';
import { AUTHORIZATION_CODE_TTL_SECONDS } from './lifetimes';

export const AUTHORIZATION_CODE_PREFIX = 'oac_';

/** A consumed authorization code, with the approving API key's state at exchange time. */
export interface ConsumedCode {
  oauthClientId: number;
  organizationId: number;
  redirectUri: string;
  scopes: Scope[];
  codeChallenge: string;
  expired: boolean;
  /** The approving key is still live (not revoked, not expired). */
  approverLive: boolean;
  /** The approving key's client binding, inherited by the tokens. */
  approverClientId: number | null;
  /** The family of the tokens issued for this code (recorded as it is consumed). */
  familyId: string;
}

interface CodeRow {
  oauth_client_id: string;
  organization_id: string;
  redirect_uri: string;
  scopes: Scope[];
  code_challenge: string;
  expired: boolean;
  approver_live: boolean;
  approver_client_id: string | null;
  family_id: string;
}

/** Authorization codes: single-use, at most 10 minutes, stored hashed. */
@Injectable()
export class AuthorizationCodesRepository {
  constructor(private readonly dataSource: DataSource) {}

  async create(input: { oauthClientId: number; organizationId: number; approvedByKeyId: number; redirectUri: string; scopes: Scope[]; codeChallenge: string }): Promise<string> {
    const code = randomSecret(AUTHORIZATION_CODE_PREFIX, 32);
    await this.dataSource.query(
      `INSERT INTO oauth_authorization_codes (code_hash, oauth_client_id, organization_id, approved_by_key_id, redirect_uri, scopes, code_challenge, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, now() + make_interval(secs => $8))`,
      [sha256(code), input.oauthClientId, input.organizationId, input.approvedByKeyId, input.redirectUri, input.scopes, input.codeChallenge, AUTHORIZATION_CODE_TTL_SECONDS],
    );
    return code;
  }

  /**
   * Marks the code used, atomically, and returns it with the token family its tokens will belong
   * to; null when it does not exist or was used already. Every presentation consumes the code, so
   * a failed exchange (wrong verifier, wrong redirect URI) cannot be retried.
   */
  async consume(code: string): Promise<ConsumedCode | null> {
    const rows: CodeRow[] = await this.dataSource.query(
      `WITH u AS (
         UPDATE oauth_authorization_codes SET used_at = now(), family_id = gen_random_uuid() WHERE code_hash = $1 AND used_at IS NULL
         RETURNING oauth_client_id, organization_id, approved_by_key_id, redirect_uri, scopes, code_challenge, expires_at, family_id)
       SELECT u.oauth_client_id, u.organization_id, u.redirect_uri, u.scopes, u.code_challenge, u.expires_at <= now() AS expired, u.family_id,
              (k.revoked_at IS NULL AND (k.expires_at IS NULL OR k.expires_at > now())) AS approver_live, k.client_id AS approver_client_id
         FROM u JOIN api_keys k ON k.id = u.approved_by_key_id`,
      [sha256(code)],
    );
    const row = rows[0];
    if (!row) return null;
    return {
      oauthClientId: Number(row.oauth_client_id),
      organizationId: Number(row.organization_id),
      redirectUri: row.redirect_uri,
      scopes: row.scopes,
      codeChallenge: row.code_challenge,
      expired: row.expired,
      approverLive: row.approver_live,
      approverClientId: row.approver_client_id === null ? null : Number(row.approver_client_id),
      familyId: row.family_id,
    };
  }

  /** The token family of a code that was used already (null: unknown code, or none was issued for it). */
  async familyOfUsed(code: string): Promise<string | null> {
    const rows: { family_id: string | null }[] = await this.dataSource.query(
      `SELECT family_id FROM oauth_authorization_codes WHERE code_hash = $1 AND used_at IS NOT NULL`,
      [sha256(code)],
    );
    return rows[0]?.family_id ?? null;
  }
}
