import { Injectable } from '@nestjs/common';
import { TrackedPromptsRepository } from '@libs/analysis';
import type { Principal } from '@libs/auth';
import { ApiError, resolveBrandPeriod, type BrandPeriodQuery, type BrandQuery } from '@libs/http';
import { addDays, utcDay, type DayKey } from '@libs/metrics';
import { BrandAccess, TenancyRepository, type Brand } from '@libs/tenancy';
import type { AnswerFilter } from '../read-model/answer-filter';

/** A tracked entity as responses name it (DESIGN §14). */
export interface EntityRef {
  id: string;
  name: string;
  kind: 'brand' | 'competitor';
}

export interface BrandScope {
  brand: Brand;
  filter: AnswerFilter;
  /** The brand, then (after `withCompetitors`) its competitors, by entity id. */
  entities: Map<string, EntityRef>;
  brandEntityId: string;
}

/**
 * Where every read of this library starts: the brand (404 unless the caller may see it, and of
 * `clientId` when given), its days, the answer filters (provider, a prompt or a topic's prompts),
 * and the names of the brand and its competitors.
 */
@Injectable()
export class CitationsScope {
  constructor(
    private readonly brands: BrandAccess,
    private readonly tenancy: TenancyRepository,
    private readonly prompts: TrackedPromptsRepository,
  ) {}

  /** A brand and its period (`startDate`/`endDate`/`days`, DESIGN §14 defaults) with the optional filters. */
  async period(p: Principal, q: BrandPeriodQuery): Promise<BrandScope> {
    const period = resolveBrandPeriod(q);
    return this.resolve(p, q, period.start, period.end, q);
  }

  /** A brand over the last `range` days, today (UTC) included. */
  async range(p: Principal, q: BrandQuery, range: number): Promise<BrandScope> {
    const today = utcDay(Date.now());
    return this.resolve(p, q, addDays(today, -(range - 1)), today, {});
  }

  /** The brand of a record the caller asked for by id, or 404 (another organisation's, another client's). */
  async ofRecord(p: Principal, record: { organizationId: number; brandId: number }, what: string): Promise<BrandScope> {
    if (!(await this.brands.canSeeResource(p, record))) throw ApiError.notFound(what);
    const today = utcDay(Date.now());
    return this.resolve(p, { brandId: record.brandId }, today, today, {});
  }

  private async resolve(p: Principal, q: BrandQuery, start: DayKey, end: DayKey, f: { provider?: string; promptId?: number; topic?: string }): Promise<BrandScope> {
    if (q.clientId !== undefined && !(await this.tenancy.canSeeClient(p, q.clientId))) throw ApiError.notFound(`Client ${q.clientId}`);
    const brand = await this.brands.resolve(p, q.brandId);
    if (q.clientId !== undefined && brand.clientId !== q.clientId) throw ApiError.notFound(`Brand ${q.brandId}`);
    let promptIds: number[] | undefined = f.promptId === undefined ? undefined : [f.promptId];
    if (f.topic !== undefined) {
      const ofTopic = await this.prompts.idsOfTopic(brand, f.topic);
      promptIds = promptIds === undefined ? ofTopic : promptIds.filter((id) => ofTopic.includes(id));
    }
    const brandEntityId = `brand-${brand.id}`;
    const entities = new Map<string, EntityRef>([[brandEntityId, { id: brandEntityId, name: brand.name, kind: 'brand' }]]);
    return { brand, filter: { organizationId: brand.organizationId, brandId: brand.id, start, end, provider: f.provider, promptIds }, entities, brandEntityId };
  }

  /** Adds the names of the brand's competitors to the scope: a read that names them runs this beside its first statement. */
  async withCompetitors(scope: BrandScope): Promise<void> {
    for (const c of await this.tenancy.competitorsOfBrand(scope.brand)) scope.entities.set(`competitor-${c.id}`, { id: `competitor-${c.id}`, name: c.name, kind: 'competitor' });
  }

  /** The entity of an id, named even when it is no longer tracked. */
  static entity(scope: BrandScope, id: string): EntityRef {
    return scope.entities.get(id) ?? { id, name: id, kind: id.startsWith('brand-') ? 'brand' : 'competitor' };
  }
}
