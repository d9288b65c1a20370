import { Injectable } from '@nestjs/common';
import { ApiError, resolveBrandPeriod, type BrandMarketQuery, type BrandPeriodQuery, type BrandQuery } from '@libs/http';
import { addDays, utcDay, type DayKey } from '@libs/metrics';
import { BrandAccess, TenancyRepository, type BrandRef, type TenantScope } from '@libs/tenancy';
import { TrackedPromptsRepository } from '../tracked-prompts.repository';

/**
 * Which analysed answers a read is over: the brand, its days (both included) and the optional
 * filters. The one filter of every analytics read (visibility's rollups, citations' answer tables).
 */
export interface AnswerFilter {
  organizationId: number;
  brandId: number;
  start: DayKey;
  end: DayKey;
  provider?: string;
  /** Only these prompts (a promptId or a topic's prompts); an empty list matches nothing. */
  promptIds?: readonly number[];
  /** Only answers asked for this market (DESIGN §17): an ISO 3166-1 alpha-2 country, a BCP 47 language, both normalised. */
  country?: string;
  language?: string;
}

/** The answer filters a request may name besides the brand and the days. */
export interface AnswerFilterFields {
  provider?: string;
  promptId?: number;
  topic?: string;
  country?: string;
  language?: string;
}

/**
 * The answer filter as SQL, over any read model with the answer columns (organization_id,
 * brand_id, day, provider, prompt_id, country, language): parameters $1-$8 (ANSWER_FILTER_PARAMS),
 * a statement's own parameters start at $9. The one place every analytics read filters answers.
 */
export const ANSWER_FILTER_WHERE = `organization_id = $1 AND brand_id = $2 AND day BETWEEN $3::date AND $4::date
  AND ($5::text IS NULL OR provider = $5) AND ($6::bigint[] IS NULL OR prompt_id = ANY($6::bigint[]))
  AND ($7::text IS NULL OR country = $7) AND ($8::text IS NULL OR language = $8)`;
export const ANSWER_FILTER_PARAMS = 8;

/** The parameters of ANSWER_FILTER_WHERE. */
export function answerFilterParams(f: AnswerFilter): unknown[] {
  return [f.organizationId, f.brandId, f.start, f.end, f.provider ?? null, f.promptIds ? [...f.promptIds] : null, f.country ?? null, f.language ?? null];
}

/** A tracked entity as responses name it (DESIGN §14). */
export interface EntityRef {
  id: string;
  name: string;
  kind: 'brand' | 'competitor';
}

/** Where an analytics read starts: the brand it may see, its answer filter and, once `named`, the tracked entities' names. */
export interface AnswerScopeOf {
  brand: BrandRef;
  filter: AnswerFilter;
  /** After `named`: the brand first, then its competitors, by entity id. */
  entities: Map<string, EntityRef>;
  brandEntityId: string;
}

/**
 * The one scope of the analytics reads (visibility, citations, page audits' findings): the brand
 * (tenancy's `scopeOf`: 404 unless the caller may see it, and of `clientId` when given) and the
 * answer filter (days, provider, a prompt or a topic's prompts, a market's country and language).
 */
@Injectable()
export class AnswerScope {
  constructor(
    private readonly brands: BrandAccess,
    private readonly tenancy: TenancyRepository,
    private readonly prompts: TrackedPromptsRepository,
  ) {}

  /** A brand and its period (`startDate`/`endDate`/`days`, DESIGN §14 defaults) with the optional filters (a market's too). */
  async period(p: TenantScope, q: BrandPeriodQuery | BrandMarketQuery): Promise<AnswerScopeOf> {
    const period = resolveBrandPeriod(q as BrandPeriodQuery);
    return this.over(p, q, period.start, period.end, period);
  }

  /** A brand over its last `days` days, today (UTC) included, with the market filter only. */
  async lastDays(p: TenantScope, q: BrandMarketQuery, days: number): Promise<AnswerScopeOf> {
    const today = utcDay(Date.now());
    return this.over(p, q, addDays(today, -(days - 1)), today, { country: q.country, language: q.language });
  }

  /** The brand of a record the caller asked for by id (today only), or 404 `what` (another organisation's, another client's). */
  async ofRecord(p: TenantScope, record: { organizationId: number; brandId: number }, what: string): Promise<AnswerScopeOf> {
    if (!(await this.brands.canSeeResource(p, record))) throw ApiError.notFound(what);
    const today = utcDay(Date.now());
    return this.over(p, { brandId: record.brandId }, today, today);
  }

  /** A brand over the days `start`..`end` with the optional filters. */
  async over(p: TenantScope, q: BrandQuery, start: DayKey, end: DayKey, f: AnswerFilterFields = {}): Promise<AnswerScopeOf> {
    const brand = await this.brands.scopeOf(p, q);
    let promptIds: number[] | undefined = f.promptId === undefined ? undefined : [f.promptId];
    if (f.topic !== undefined) {
      const ofTopic = await this.prompts.idsOfTopic(brand, f.topic);
      promptIds = promptIds === undefined ? ofTopic : promptIds.filter((id) => ofTopic.includes(id));
    }
    const filter: AnswerFilter = { organizationId: brand.organizationId, brandId: brand.id, start, end, provider: f.provider, promptIds };
    if (f.country !== undefined) filter.country = f.country;
    if (f.language !== undefined) filter.language = f.language;
    return { brand, filter, entities: new Map(), brandEntityId: `brand-${brand.id}` };
  }

  /** Adds the names of the brand and its competitors to the scope (one statement; a read that names them runs this beside its first statement). */
  async named(scope: AnswerScopeOf, p: TenantScope): Promise<AnswerScopeOf> {
    const names = await this.tenancy.trackedNames(p, scope.brand);
    if (names.brand !== null) scope.entities.set(scope.brandEntityId, { id: scope.brandEntityId, name: names.brand, kind: 'brand' });
    for (const c of names.competitors) scope.entities.set(`competitor-${c.id}`, { id: `competitor-${c.id}`, name: c.name, kind: 'competitor' });
    return scope;
  }

  /** The entity of an id, named even when it is no longer tracked. */
  static entity(scope: Pick<AnswerScopeOf, 'entities'>, id: string): EntityRef {
    return scope.entities.get(id) ?? { id, name: id, kind: id.startsWith('brand-') ? 'brand' : 'competitor' };
  }
}
