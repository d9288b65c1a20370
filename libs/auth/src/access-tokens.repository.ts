import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { Scope } from './domain/scopes';
import type { Tier } from './domain/tiers';
import type { Principal } from './principal';

interface TokenRow {
  oauth_client_id: string;
  public_client_id: string;
  organization_id: string;
  client_id: string | null;
  scopes: Scope[];
  tier: Tier;
  expires_at: Date;
}

/** Looks up OAuth access tokens (bearer) by hash. */
@Injectable()
export class AccessTokensRepository {
  constructor(private readonly dataSource: DataSource) {}

  async principalFor(tokenHash: Buffer): Promise<Principal | null> {
    const rows: TokenRow[] = await this.dataSource.query(
      `SELECT t.oauth_client_id, c.client_id AS public_client_id, t.organization_id, t.client_id, t.scopes, c.tier, t.expires_at
         FROM oauth_tokens t JOIN oauth_clients c ON c.id = t.oauth_client_id
        WHERE t.token_hash = $1 AND t.kind = 'access' AND t.revoked_at IS NULL AND c.revoked_at IS NULL AND t.expires_at > now()`,
      [tokenHash],
    );
    const row = rows[0];
    if (!row) return null;
    return {
      kind: 'oauth',
      organizationId: Number(row.organization_id),
      clientId: row.client_id === null ? null : Number(row.client_id),
      scopes: row.scopes,
      tier: row.tier,
      keyId: null,
      oauthClientId: Number(row.oauth_client_id),
      subject: `oauth:${row.oauth_client_id}`,
      actor: `oauth:${row.public_client_id}`,
      expiresAt: row.expires_at,
    };
  }
}
