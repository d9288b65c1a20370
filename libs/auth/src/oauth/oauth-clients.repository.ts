import { Injectable } from '@nestjs/common';
import { timingSafeEqual } from 'node:crypto';
import { DataSource, type EntityManager } from 'typeorm';
import { randomSecret, sha256 } from '../domain/api-key-format';
import type { Scope } from '../domain/scopes';
import type { Tier } from '../domain/tiers';
import { redirectUriProblem } from './redirect-uris';

export const OAUTH_CLIENT_ID_PREFIX = 'oc_';
export const OAUTH_CLIENT_SECRET_PREFIX = 'ocs_';

/** A registered OAuth client (never its secret). */
export interface OAuthClient {
  /** oauth_clients.id */
  id: number;
  /** The public client_id. */
  clientId: string;
  organizationId: number;
  name: string | null;
  scopes: Scope[];
  redirectUris: string[];
  tier: Tier;
}

export interface CreatedOAuthClient {
  clientId: string;
  /** Shown once; the database keeps its SHA-256. */
  clientSecret: string;
  scopes: Scope[];
  redirectUris: string[];
  tier: Tier;
  name: string | null;
  organizationId: number;
}

export class OAuthClientInputError extends Error {
  override readonly name = 'OAuthClientInputError';
}

interface ClientRow {
  id: string;
  client_id: string;
  organization_id: string;
  name: string | null;
  scopes: Scope[];
  redirect_uris: string[];
  tier: Tier;
  secret_hash: Buffer;
}

const COLUMNS = 'id, client_id, organization_id, name, scopes, redirect_uris, tier, secret_hash';
/** Compared against when the client does not exist, so both paths cost the same. */
const DUMMY_HASH = sha256('no such client');

function toClient(row: ClientRow): OAuthClient {
  return {
    id: Number(row.id),
    clientId: row.client_id,
    organizationId: Number(row.organization_id),
    name: row.name,
    scopes: row.scopes,
    redirectUris: row.redirect_uris,
    tier: row.tier,
  };
}

/** OAuth clients: registered by the CLI, authenticated by id and secret on the token and revocation endpoints. */
@Injectable()
export class OAuthClientsRepository {
  constructor(private readonly dataSource: DataSource) {}

  async create(
    input: { organizationId: number; scopes: Scope[]; redirectUris?: string[]; tier?: Tier; name?: string | null },
    manager: EntityManager = this.dataSource.manager,
  ): Promise<CreatedOAuthClient> {
    if (!input.scopes.length) throw new OAuthClientInputError('an OAuth client needs at least one scope');
    const redirectUris = [...new Set(input.redirectUris ?? [])];
    for (const uri of redirectUris) {
      const problem = redirectUriProblem(uri);
      if (problem) throw new OAuthClientInputError(`redirect URI ${problem}`);
    }
    const org: { tier: Tier }[] = await manager.query('SELECT tier FROM organizations WHERE id = $1', [input.organizationId]);
    if (!org.length) throw new OAuthClientInputError(`organisation ${input.organizationId} does not exist`);
    const clientId = randomSecret(OAUTH_CLIENT_ID_PREFIX, 16);
    const clientSecret = randomSecret(OAUTH_CLIENT_SECRET_PREFIX, 32);
    const tier = input.tier ?? org[0].tier;
    await manager.query(
      `INSERT INTO oauth_clients (organization_id, client_id, secret_hash, name, scopes, redirect_uris, tier) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [input.organizationId, clientId, sha256(clientSecret), input.name ?? null, input.scopes, redirectUris, tier],
    );
    return { clientId, clientSecret, scopes: input.scopes, redirectUris, tier, name: input.name ?? null, organizationId: input.organizationId };
  }

  /** A live (not revoked) client by its public id. */
  async find(clientId: string): Promise<OAuthClient | null> {
    const row = await this.row(clientId);
    return row ? toClient(row) : null;
  }

  /** The client when the secret is right (compared in constant time), else null. */
  async authenticate(clientId: string, clientSecret: string): Promise<OAuthClient | null> {
    const row = clientId.length <= 200 ? await this.row(clientId) : null;
    const presented = sha256(clientSecret);
    const expected = row?.secret_hash ?? DUMMY_HASH;
    const equal = expected.length === presented.length && timingSafeEqual(expected, presented);
    return row && equal ? toClient(row) : null;
  }

  /**
   * Revokes a client and every token it holds; returns the hashes of its access tokens that were
   * live, to be published as revoked. Null when the client does not exist.
   */
  async revoke(clientId: string): Promise<{ revokedAt: string; accessTokenHashes: Buffer[] } | null> {
    return this.dataSource.transaction(async (m) => {
      const rows: { id: string; revoked_at: Date }[] = await m.query(
        `WITH u AS (UPDATE oauth_clients SET revoked_at = COALESCE(revoked_at, now()) WHERE client_id = $1 RETURNING id, revoked_at) SELECT * FROM u`,
        [clientId],
      );
      if (!rows.length) return null;
      const tokens: { token_hash: Buffer }[] = await m.query(
        `WITH u AS (UPDATE oauth_tokens SET revoked_at = now() WHERE oauth_client_id = $1 AND revoked_at IS NULL RETURNING token_hash, kind)
         SELECT token_hash FROM u WHERE kind = 'access'`,
        [rows[0].id],
      );
      return { revokedAt: rows[0].revoked_at.toISOString(), accessTokenHashes: tokens.map((t) => t.token_hash) };
    });
  }

  private async row(clientId: string): Promise<ClientRow | null> {
    const rows: ClientRow[] = await this.dataSource.query(`SELECT ${COLUMNS} FROM oauth_clients WHERE client_id = $1 AND revoked_at IS NULL`, [clientId]);
    return rows[0] ?? null;
  }
}
