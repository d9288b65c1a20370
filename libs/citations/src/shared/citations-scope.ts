import { Injectable } from '@nestjs/common';
import { TrackedPromptsRepository } from '@libs/analysis';
import type { Principal } from '@libs/auth';
import { ApiError, resolveBrandPeriod, type BrandPeriodQuery, type BrandQuery } from '@libs/http';
import { addDays, utcDay, type DayKey } from '@libs/metrics';
import { BrandAccess, TenancyRepository } from '@libs/tenancy';
import type { AnswerFilter } from '../read-model/answer-filter';

/** A tracked entity as responses name it (DESIGN §14). */
export interface EntityRef {
  id: string;
  name: string;
  kind: 'brand' | 'competitor';
}

/** The brand of a read: who owns it (its name and competitors are loaded by `named`, beside the read's first statement). */
export interface BrandRef {
  id: number;
  organizationId: number;
  clientId: number | null;
}

export interface BrandScope {
  brand: BrandRef;
  filter: AnswerFilter;
  /** After `named`: the brand and its competitors, by entity id. */
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
    // The owner is cached (BrandAccess): the brand's record and names are read only where a response names them.
    const owner = await this.brands.ownerOf(q.brandId);
    if (!owner || !(await this.brands.canSee(p, q.brandId)) || (q.clientId !== undefined && owner.clientId !== q.clientId)) throw ApiError.notFound(`Brand ${q.brandId}`);
    const brand: BrandRef = { id: q.brandId, organizationId: owner.organizationId, clientId: owner.clientId };
    let promptIds: number[] | undefined = f.promptId === undefined ? undefined : [f.promptId];
    if (f.topic !== undefined) {
      const ofTopic = await this.prompts.idsOfTopic(brand, f.topic);
      promptIds = promptIds === undefined ? ofTopic : promptIds.filter((id) => ofTopic.includes(id));
    }
    const brandEntityId = `brand-${brand.id}`;
    return { brand, filter: { organizationId: brand.organizationId, brandId: brand.id, start, end, provider: f.provider, promptIds }, entities: new Map(), brandEntityId };
  }

  /** Adds the names of the brand and its competitors to the scope: a read that names them runs this beside its first statement. */
  async named(scope: BrandScope, p: Principal): Promise<void> {
    const [brand, competitors] = await Promise.all([this.tenancy.findBrand(p, scope.brand.id), this.tenancy.competitorsOfBrand(scope.brand)]);
    if (brand) scope.entities.set(scope.brandEntityId, { id: scope.brandEntityId, name: brand.name, kind: 'brand' });
    for (const c of competitors) scope.entities.set(`competitor-${c.id}`, { id: `competitor-${c.id}`, name: c.name, kind: 'competitor' });
  }

  /** The entity of an id, named even when it is no longer tracked. */
  static entity(scope: BrandScope, id: string): EntityRef {
    return scope.entities.get(id) ?? { id, name: id, kind: id.startsWith('brand-') ? 'brand' : 'competitor' };
  }
}
