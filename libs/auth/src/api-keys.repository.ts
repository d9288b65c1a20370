import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { generateApiKey, sha256 } from './domain/api-key-format';
import type { Scope } from './domain/scopes';
import type { Tier } from './domain/tiers';
import type { Principal } from './principal';

export interface CreatedApiKey {
  id: number;
  key: string;
  scopes: Scope[];
  tier: Tier;
  clientId: number | null;
  expiresAt: string | null;
}

interface KeyRow {
  id: string;
  organization_id: string;
  client_id: string | null;
  scopes: Scope[];
  tier: Tier;
  expires_at: Date | null;
  revoked_at: Date | null;
}

export class ApiKeyInputError extends Error {
  override readonly name = 'ApiKeyInputError';
}

/** API keys: created and revoked by the CLI; looked up by hash on each (uncached) request. */
@Injectable()
export class ApiKeysRepository {
  constructor(private readonly dataSource: DataSource) {}

  async create(
    input: { organizationId: number; scopes: Scope[]; tier?: Tier; clientId?: number | null; expiresAt?: Date | null; name?: string | null },
    manager: EntityManager = this.dataSource.manager,
  ): Promise<CreatedApiKey> {
    const org: { tier: Tier }[] = await manager.query('SELECT tier FROM organizations WHERE id = $1', [input.organizationId]);
    if (!org.length) throw new ApiKeyInputError(`organisation ${input.organizationId} does not exist`);
    if (input.clientId != null) {
      const c = await manager.query('SELECT 1 FROM clients WHERE id = $1 AND organization_id = $2', [input.clientId, input.organizationId]);
      if (!c.length) throw new ApiKeyInputError(`client ${input.clientId} does not exist in organisation ${input.organizationId}`);
    }
    const key = generateApiKey();
    const tier = input.tier ?? org[0].tier;
    const [row]: { id: string; expires_at: Date | null }[] = await manager.query(
      `INSERT INTO api_keys (organization_id, client_id, name, key_hash, last_four, scopes, tier, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id, expires_at`,
      [input.organizationId, input.clientId ?? null, input.name ?? null, sha256(key), key.slice(-4), input.scopes, tier, input.expiresAt ?? null],
    );
    return { id: Number(row.id), key, scopes: input.scopes, tier, clientId: input.clientId ?? null, expiresAt: row.expires_at?.toISOString() ?? null };
  }

  /** Marks a key revoked; returns null when it does not exist. Idempotent. */
  async revoke(id: number): Promise<{ id: number; revokedAt: string; keyHash: Buffer } | null> {
    const rows: { id: string; revoked_at: Date; key_hash: Buffer }[] = await this.dataSource.query(
      // (TypeORM answers a bare UPDATE … RETURNING with [rows, count]; a CTE makes it a plain SELECT.)
      `WITH u AS (UPDATE api_keys SET revoked_at = COALESCE(revoked_at, now()) WHERE id = $1 RETURNING id, revoked_at, key_hash)
       SELECT * FROM u`,
      [id],
    );
    return rows.length ? { id: Number(rows[0].id), revokedAt: rows[0].revoked_at.toISOString(), keyHash: rows[0].key_hash } : null;
  }

  /** The principal of a live key (not revoked, not expired), or null. */
  async principalFor(keyHash: Buffer): Promise<Principal | null> {
    const rows: KeyRow[] = await this.dataSource.query(
      `SELECT id, organization_id, client_id, scopes, tier, expires_at, revoked_at FROM api_keys WHERE key_hash = $1`,
      [keyHash],
    );
    const row = rows[0];
    if (!row || row.revoked_at || (row.expires_at && row.expires_at.getTime() <= Date.now())) return null;
    return {
      kind: 'api_key',
      organizationId: Number(row.organization_id),
      clientId: row.client_id === null ? null : Number(row.client_id),
      scopes: row.scopes,
      tier: row.tier,
      keyId: Number(row.id),
      oauthClientId: null,
      subject: `key:${row.id}`,
      actor: `key:${row.id}`,
      expiresAt: row.expires_at,
    };
  }

  async belongsTo(keyId: number, organizationId: number): Promise<boolean> {
    const rows = await this.dataSource.query('SELECT 1 FROM api_keys WHERE id = $1 AND organization_id = $2', [keyId, organizationId]);
    return rows.length > 0;
  }
}
