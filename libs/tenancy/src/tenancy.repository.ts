import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { Tier } from '@libs/auth';
import { poolOf, preparedQuery } from '@libs/sql';

export interface Organization {
  id: number;
  name: string;
  tier: Tier;
  createdAt: string;
}

export interface Client {
  id: number;
  organizationId: number;
  name: string;
  createdAt: string;
}

export interface Competitor {
  id: number;
  brandId: number;
  name: string;
  domain: string;
  aliases: string[];
  /** Other domains it owns besides `domain`. */
  extraDomains: string[];
}

export interface Brand {
  id: number;
  organizationId: number;
  clientId: number | null;
  name: string;
  domain: string;
  aliases: string[];
  /** Other domains it owns besides `domain`. */
  extraDomains: string[];
  createdAt: string;
}

/** Who may see what: the caller's organisation and, for a client-bound credential, that client. */
export interface TenantScope {
  organizationId: number;
  clientId: number | null;
}

export class TenancyInputError extends Error {
  override readonly name = 'TenancyInputError';
}

const DOMAIN = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

export function normaliseDomain(input: string): string {
  const d = input.trim().toLowerCase().replace(/^https?:\/\//, '').replace(/\/.*$/, '').replace(/^www\./, '');
  if (!DOMAIN.test(d)) throw new TenancyInputError(`"${input}" is not a domain name`);
  return d;
}

type Row = Record<string, unknown>;

/** Aliases as stored: trimmed, non-empty, at most 200 characters, each once (case aside). */
export function cleanAliases(aliases: readonly string[] | undefined): string[] {
  const out: string[] = [];
  for (const a of aliases ?? []) {
    const t = a.trim();
    if (!t) continue;
    if (t.length > 200) throw new TenancyInputError(`alias "${t.slice(0, 40)}…" is longer than 200 characters`);
    if (!out.some((o) => o.toLowerCase() === t.toLowerCase())) out.push(t);
  }
  return out;
}
const iso = (d: unknown) => (d as Date).toISOString();
const toBrand = (r: Row): Brand => ({
  id: Number(r.id),
  organizationId: Number(r.organization_id),
  clientId: r.client_id === null ? null : Number(r.client_id),
  name: r.name as string,
  domain: r.domain as string,
  aliases: r.aliases as string[],
  extraDomains: (r.extra_domains as string[] | undefined) ?? [],
  createdAt: iso(r.created_at),
});
const toCompetitor = (r: Row): Competitor => ({
  id: Number(r.id),
  brandId: Number(r.brand_id),
  name: r.name as string,
  domain: r.domain as string,
  aliases: r.aliases as string[],
  extraDomains: (r.extra_domains as string[] | undefined) ?? [],
});

/** Organisations, clients, brands and competitor brands. Every read is filtered by tenant. */
@Injectable()
export class TenancyRepository {
  constructor(private readonly dataSource: DataSource) {}

  async createOrganization(name: string, tier: Tier): Promise<Organization> {
    if (!name.trim()) throw new TenancyInputError('an organisation needs a name');
    const [r]: Row[] = await this.dataSource.query(`INSERT INTO organizations (name, tier) VALUES ($1, $2) RETURNING *`, [name.trim(), tier]);
    return { id: Number(r.id), name: r.name as string, tier: r.tier as Tier, createdAt: iso(r.created_at) };
  }

  async createClient(organizationId: number, name: string): Promise<Client> {
    if (!name.trim()) throw new TenancyInputError('a client needs a name');
    await this.assertOrganization(organizationId);
    const [r]: Row[] = await this.dataSource.query(`INSERT INTO clients (organization_id, name) VALUES ($1, $2) RETURNING *`, [organizationId, name.trim()]);
    return { id: Number(r.id), organizationId, name: r.name as string, createdAt: iso(r.created_at) };
  }

  async createBrand(input: {
    organizationId: number;
    clientId?: number | null;
    name: string;
    domain: string;
    aliases?: string[];
    extraDomains?: string[];
    competitors?: { name: string; domain: string; aliases?: string[]; extraDomains?: string[] }[];
  }): Promise<Brand & { competitors: Competitor[] }> {
    if (!input.name.trim()) throw new TenancyInputError('a brand needs a name');
    await this.assertOrganization(input.organizationId);
    const domain = normaliseDomain(input.domain);
    const extra = (main: string, more: string[] | undefined) => [...new Set((more ?? []).map(normaliseDomain))].filter((d) => d !== main);
    const extraDomains = extra(domain, input.extraDomains);
    const aliases = cleanAliases(input.aliases);
    const competitors = (input.competitors ?? []).map((c) => {
      const cd = normaliseDomain(c.domain);
      if (!c.name.trim()) throw new TenancyInputError('a competitor needs a name');
      return { name: c.name.trim(), domain: cd, aliases: cleanAliases(c.aliases), extraDomains: extra(cd, c.extraDomains) };
    });
    return this.dataSource.transaction(async (m) => {
      if (input.clientId != null) {
        const c = await m.query('SELECT 1 FROM clients WHERE id = $1 AND organization_id = $2', [input.clientId, input.organizationId]);
        if (!c.length) throw new TenancyInputError(`client ${input.clientId} does not exist in organisation ${input.organizationId}`);
      }
      const [b]: Row[] = await m.query(
        `INSERT INTO brands (organization_id, client_id, name, domain, aliases, extra_domains) VALUES ($1, $2, $3, $4, $5, $6) RETURNING *`,
        [input.organizationId, input.clientId ?? null, input.name.trim(), domain, aliases, extraDomains],
      );
      const made: Competitor[] = [];
      for (const c of competitors) {
        const [r]: Row[] = await m.query(
          `INSERT INTO competitor_brands (organization_id, brand_id, name, domain, aliases, extra_domains) VALUES ($1, $2, $3, $4, $5, $6) RETURNING *`,
          [input.organizationId, b.id, c.name, c.domain, c.aliases, c.extraDomains],
        );
        made.push(toCompetitor(r));
      }
      return { ...toBrand(b), competitors: made };
    });
  }

  /**
   * Adds or removes an alias or an extra domain of a brand (`brand`) or a competitor
   * (`competitor`), by id (the operator's CLI: no tenant). Returns the names and domains after the
   * change; a domain is normalised, a removal of something absent changes nothing.
   */
  async editNames(target: 'brand' | 'competitor', id: number, change: { op: 'add' | 'remove'; alias?: string; domain?: string }): Promise<{ id: number; name: string; domain: string; aliases: string[]; extraDomains: string[] }> {
    const table = target === 'brand' ? 'brands' : 'competitor_brands';
    return this.dataSource.transaction(async (m) => {
      const rows: Row[] = await m.query(`SELECT id, name, domain, aliases, extra_domains FROM ${table} WHERE id = $1 FOR UPDATE`, [id]);
      if (!rows.length) throw new TenancyInputError(`${target} ${id} does not exist`);
      let aliases = rows[0].aliases as string[];
      let extraDomains = rows[0].extra_domains as string[];
      if (change.alias !== undefined) {
        const [alias] = cleanAliases([change.alias]);
        if (alias === undefined) throw new TenancyInputError('an alias needs 1 to 200 characters');
        aliases = change.op === 'add' ? [...new Set([...aliases, alias])] : aliases.filter((a) => a.toLowerCase() !== alias.toLowerCase());
      }
      if (change.domain !== undefined) {
        const domain = normaliseDomain(change.domain);
        if (change.op === 'add' && domain !== rows[0].domain) extraDomains = [...new Set([...extraDomains, domain])];
        if (change.op === 'remove') extraDomains = extraDomains.filter((d) => d !== domain);
      }
      await m.query(`UPDATE ${table} SET aliases = $2, extra_domains = $3 WHERE id = $1`, [id, aliases, extraDomains]);
      return { id, name: rows[0].name as string, domain: rows[0].domain as string, aliases, extraDomains };
    });
  }

  private async assertOrganization(id: number): Promise<void> {
    const rows = await this.dataSource.query('SELECT 1 FROM organizations WHERE id = $1', [id]);
    if (!rows.length) throw new TenancyInputError(`organisation ${id} does not exist`);
  }

  /** Whether the caller may see the client: one of its organisation's, and its own when it is bound to one. */
  async canSeeClient(scope: TenantScope, clientId: number): Promise<boolean> {
    if (scope.clientId !== null && scope.clientId !== clientId) return false;
    const rows: unknown[] = await this.dataSource.query(`SELECT 1 FROM clients WHERE id = $1 AND organization_id = $2`, [clientId, scope.organizationId]);
    return rows.length > 0;
  }

  async listBrands(scope: TenantScope, clientId?: number): Promise<Brand[]> {
    const rows: Row[] = await this.dataSource.query(
      `SELECT * FROM brands WHERE organization_id = $1
         AND ($2::bigint IS NULL OR client_id = $2) AND ($3::bigint IS NULL OR client_id = $3)
       ORDER BY id`,
      [scope.organizationId, scope.clientId, clientId ?? null],
    );
    return rows.map(toBrand);
  }

  /** The brand when the scope may see it, else null (so another tenant's brand is a 404). */
  async findBrand(scope: TenantScope, id: number): Promise<Brand | null> {
    const rows: Row[] = await this.dataSource.query(
      `SELECT * FROM brands WHERE id = $1 AND organization_id = $2 AND ($3::bigint IS NULL OR client_id = $3)`,
      [id, scope.organizationId, scope.clientId],
    );
    return rows.length ? toBrand(rows[0]) : null;
  }

  /** The competitors of a brand the caller has already resolved (BrandAccess.resolve). */
  async competitorsOfBrand(brand: Pick<Brand, 'id' | 'organizationId'>): Promise<Competitor[]> {
    const rows: Row[] = await this.dataSource.query(`SELECT * FROM competitor_brands WHERE brand_id = $1 AND organization_id = $2 ORDER BY id`, [
      brand.id,
      brand.organizationId,
    ]);
    return rows.map(toCompetitor);
  }

  /**
   * The names an analytics read gives its entities, in one prepared statement: the brand's (as
   * `findBrand(scope, brand.id)` finds it: null when the scope may not see it) and its competitors'
   * by id (as `competitorsOfBrand(brand)`). A read names them on every request, beside its own
   * statement; nothing is cached (a rename shows at once, in every process).
   */
  async trackedNames(scope: TenantScope, brand: Pick<Brand, 'id' | 'organizationId'>): Promise<TrackedNames> {
    const rows = await preparedQuery<{ competitor_id: string | null; name: string }>(poolOf(this.dataSource), TRACKED_NAMES_SQL, [brand.id, scope.organizationId, scope.clientId, brand.organizationId]);
    const names: TrackedNames = { brand: null, competitors: [] };
    for (const r of rows) {
      if (r.competitor_id === null) names.brand = r.name;
      else names.competitors.push({ id: Number(r.competitor_id), name: r.name });
    }
    return names;
  }
}

/** The brand's name (null when the caller may not see it) and its competitors' by id. */
export interface TrackedNames {
  brand: string | null;
  competitors: { id: number; name: string }[];
}

/** `findBrand`'s row and `competitorsOfBrand`'s rows, their names only: the brand first (no competitor id), then the competitors by id. */
const TRACKED_NAMES_SQL = `SELECT NULL::bigint AS competitor_id, name FROM brands WHERE id = $1 AND organization_id = $2 AND ($3::bigint IS NULL OR client_id = $3)
  UNION ALL
  SELECT id, name FROM competitor_brands WHERE brand_id = $1 AND organization_id = $4
  ORDER BY competitor_id NULLS FIRST`;
