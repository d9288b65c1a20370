import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { DEFAULT_SCHEDULE, MAX_ACTIVE_PROMPTS, normaliseQuery, normaliseTags, type Provider, type Schedule } from './domain';

export interface TrackedPrompt {
  id: number;
  brandId: number;
  query: string;
  topic: string | null;
  tags: string[];
  providers: Provider[];
  /** The market it is asked for (DESIGN §17): ISO 3166-1 alpha-2 country, BCP 47 language; null: the provider's default. */
  country: string | null;
  language: string | null;
  isActive: boolean;
  createdAt: string;
  updatedAt: string;
}

export interface PromptInput {
  query: string;
  topic: string | null;
  tags: string[];
  providers: Provider[];
  /** The market, normalised by the caller (libs/http's market rules); omitted or null: none. */
  country?: string | null;
  language?: string | null;
  isActive: boolean;
}

/** Why a prompt could not be stored: the brand already tracks the same query in the same market, or already has the most active prompts it may. */
export type PromptConflict = { conflict: 'duplicate'; promptId: number } | { conflict: 'limit'; limit: number };
export type PromptWrite = { prompt: TrackedPrompt } | PromptConflict;

type Row = Record<string, unknown>;
const toPrompt = (r: Row): TrackedPrompt => ({
  id: Number(r.id),
  brandId: Number(r.brand_id),
  query: r.query as string,
  topic: (r.topic as string | null) ?? null,
  tags: r.tags as string[],
  providers: r.providers as Provider[],
  country: (r.country as string | null) ?? null,
  language: (r.language as string | null) ?? null,
  isActive: r.is_active as boolean,
  createdAt: (r.created_at as Date).toISOString(),
  updatedAt: (r.updated_at as Date).toISOString(),
});

/** A brand the caller has already resolved (BrandAccess.resolve, or the CLI's lookup). */
export interface BrandRef {
  id: number;
  organizationId: number;
}

/**
 * Tracked prompts and brand schedules. Callers pass a brand they have already resolved for the
 * caller's tenant; every statement still filters by the brand's organisation.
 */
@Injectable()
export class TrackedPromptsRepository {
  constructor(private readonly dataSource: DataSource) {}

  async list(brand: BrandRef, q: { active?: boolean; limit: number; offset: number; sortColumn: string; order: 'asc' | 'desc' }): Promise<{ rows: TrackedPrompt[]; total: number }> {
    const params = [brand.id, brand.organizationId, q.active ?? null];
    const where = `brand_id = $1 AND organization_id = $2 AND ($3::boolean IS NULL OR is_active = $3)`;
    const direction = q.order === 'asc' ? 'ASC' : 'DESC';
    const [rows, [{ n }]]: [Row[], { n: number }[]] = await Promise.all([
      this.dataSource.query(`SELECT * FROM tracked_prompts WHERE ${where} ORDER BY ${q.sortColumn} ${direction}, id ${direction} LIMIT $4 OFFSET $5`, [...params, q.limit, q.offset]),
      this.dataSource.query(`SELECT count(*)::int AS n FROM tracked_prompts WHERE ${where}`, params),
    ]);
    return { rows: rows.map(toPrompt), total: n };
  }

  async get(brand: BrandRef, promptId: number): Promise<TrackedPrompt | null> {
    const rows: Row[] = await this.dataSource.query(`SELECT * FROM tracked_prompts WHERE id = $1 AND brand_id = $2 AND organization_id = $3`, [promptId, brand.id, brand.organizationId]);
    return rows.length ? toPrompt(rows[0]) : null;
  }

  /** Ids of the brand's prompts of a topic (active or not: history counts), for analytics filters. */
  async idsOfTopic(brand: BrandRef, topic: string): Promise<number[]> {
    const rows: { id: string }[] = await this.dataSource.query(`SELECT id FROM tracked_prompts WHERE brand_id = $1 AND organization_id = $2 AND topic = $3`, [brand.id, brand.organizationId, topic]);
    return rows.map((r) => Number(r.id));
  }

  /** The brand's active prompts, oldest first (what a scheduled run asks). */
  async active(brand: BrandRef): Promise<TrackedPrompt[]> {
    const rows: Row[] = await this.dataSource.query(`SELECT * FROM tracked_prompts WHERE brand_id = $1 AND organization_id = $2 AND is_active ORDER BY id`, [brand.id, brand.organizationId]);
    return rows.map(toPrompt);
  }

  async add(brand: BrandRef, input: PromptInput): Promise<PromptWrite> {
    const query = normaliseQuery(input.query);
    return this.dataSource.transaction(async (m) => {
      await this.lockBrand(m, brand.id);
      const duplicate = await this.sameQuery(m, brand.id, query, { country: input.country ?? null, language: input.language ?? null }, null);
      if (duplicate !== null) return { conflict: 'duplicate', promptId: duplicate };
      if (input.isActive && (await this.activeCount(m, brand.id)) >= MAX_ACTIVE_PROMPTS) return { conflict: 'limit', limit: MAX_ACTIVE_PROMPTS };
      const [row]: Row[] = await m.query(
        `INSERT INTO tracked_prompts (organization_id, brand_id, query, topic, tags, providers, is_active, country, language) VALUES ($1, $2, $3, $4, $5::text[], $6::text[], $7, $8, $9) RETURNING *`,
        [brand.organizationId, brand.id, query, input.topic, normaliseTags(input.tags), input.providers, input.isActive, input.country ?? null, input.language ?? null],
      );
      return { prompt: toPrompt(row) };
    });
  }

  /** Changes the given fields; null when the brand has no such prompt. */
  async update(brand: BrandRef, promptId: number, changes: Partial<PromptInput>): Promise<PromptWrite | null> {
    return this.dataSource.transaction(async (m) => {
      await this.lockBrand(m, brand.id);
      const rows: Row[] = await m.query(`SELECT * FROM tracked_prompts WHERE id = $1 AND brand_id = $2 AND organization_id = $3 FOR UPDATE`, [promptId, brand.id, brand.organizationId]);
      if (!rows.length) return null;
      const current = toPrompt(rows[0]);
      const next: Required<PromptInput> = {
        query: changes.query === undefined ? current.query : normaliseQuery(changes.query),
        topic: changes.topic === undefined ? current.topic : changes.topic,
        tags: changes.tags === undefined ? current.tags : normaliseTags(changes.tags),
        providers: changes.providers ?? current.providers,
        country: changes.country === undefined ? current.country : changes.country,
        language: changes.language === undefined ? current.language : changes.language,
        isActive: changes.isActive ?? current.isActive,
      };
      if (next.query.toLowerCase() !== current.query.toLowerCase() || next.country !== current.country || next.language !== current.language) {
        const duplicate = await this.sameQuery(m, brand.id, next.query, next, promptId);
        if (duplicate !== null) return { conflict: 'duplicate', promptId: duplicate };
      }
      if (next.isActive && !current.isActive && (await this.activeCount(m, brand.id)) >= MAX_ACTIVE_PROMPTS) return { conflict: 'limit', limit: MAX_ACTIVE_PROMPTS };
      // TypeORM answers an UPDATE/DELETE … RETURNING on PostgreSQL with [rows, affected].
      const [[row]]: [Row[], number] = await m.query(
        `UPDATE tracked_prompts SET query = $2, topic = $3, tags = $4::text[], providers = $5::text[], is_active = $6, country = $7, language = $8, updated_at = now() WHERE id = $1 RETURNING *`,
        [promptId, next.query, next.topic, next.tags, next.providers, next.isActive, next.country, next.language],
      );
      return { prompt: toPrompt(row) };
    });
  }

  async remove(brand: BrandRef, promptId: number): Promise<boolean> {
    const [, affected]: [unknown[], number] = await this.dataSource.query(`DELETE FROM tracked_prompts WHERE id = $1 AND brand_id = $2 AND organization_id = $3`, [promptId, brand.id, brand.organizationId]);
    return affected > 0;
  }

  /** The brand's schedule (daily when never set). */
  async schedule(brand: BrandRef): Promise<{ schedule: Schedule; lastRunAt: string | null }> {
    const rows: Row[] = await this.dataSource.query(`SELECT schedule, last_run_at FROM brand_schedules WHERE brand_id = $1 AND organization_id = $2`, [brand.id, brand.organizationId]);
    if (!rows.length) return { schedule: DEFAULT_SCHEDULE, lastRunAt: null };
    return { schedule: rows[0].schedule as Schedule, lastRunAt: rows[0].last_run_at === null ? null : (rows[0].last_run_at as Date).toISOString() };
  }

  async setSchedule(brand: BrandRef, schedule: Schedule): Promise<{ schedule: Schedule; lastRunAt: string | null }> {
    await this.dataSource.query(
      `INSERT INTO brand_schedules (brand_id, organization_id, schedule) VALUES ($1, $2, $3)
       ON CONFLICT (brand_id) DO UPDATE SET schedule = EXCLUDED.schedule, updated_at = now()`,
      [brand.id, brand.organizationId, schedule],
    );
    return this.schedule(brand);
  }

  /** Serialises writes to one brand's prompts (the active-prompt limit and the same-query check). */
  private async lockBrand(m: EntityManager, brandId: number): Promise<void> {
    await m.query(`SELECT pg_advisory_xact_lock(hashtextextended('tracked-prompts:' || $1::text, 0))`, [brandId]);
  }

  private async activeCount(m: EntityManager, brandId: number): Promise<number> {
    const [{ n }]: { n: number }[] = await m.query(`SELECT count(*)::int AS n FROM tracked_prompts WHERE brand_id = $1 AND is_active`, [brandId]);
    return n;
  }

  /** The prompt of the brand asking the same query (case aside) in the same market, if any: the market is part of a prompt's identity. */
  private async sameQuery(m: EntityManager, brandId: number, query: string, market: { country: string | null; language: string | null }, except: number | null): Promise<number | null> {
    const rows: { id: string }[] = await m.query(
      `SELECT id FROM tracked_prompts WHERE brand_id = $1 AND lower(query) = lower($2) AND coalesce(country, '') = coalesce($4, '') AND coalesce(language, '') = coalesce($5, '') AND ($3::bigint IS NULL OR id <> $3)`,
      [brandId, query, except, market.country, market.language],
    );
    return rows.length ? Number(rows[0].id) : null;
  }
}
