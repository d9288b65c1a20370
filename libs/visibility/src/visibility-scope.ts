import { Injectable } from '@nestjs/common';
import { TrackedPromptsRepository } from '@libs/analysis';
import type { Principal } from '@libs/auth';
import { ApiError, resolveBrandPeriod, type BrandPeriod, type BrandPeriodQuery, type BrandQuery } from '@libs/http';
import { BrandAccess, TenancyRepository, type Brand } from '@libs/tenancy';
import type { RollupFilter } from './read-model/rollup-reads';

/** A tracked entity as responses name it (DESIGN §14). */
export interface EntityRef {
  id: string;
  name: string;
  kind: 'brand' | 'competitor';
}

export interface ResolvedScope {
  brand: Brand;
  period: BrandPeriod;
  filter: RollupFilter;
  /** The brand first, then its competitors, by entity id. */
  entities: Map<string, EntityRef>;
  brandEntityId: string;
}

/**
 * What every analytics read starts with: the brand (404 unless the caller may see it), the period
 * (DESIGN §14 defaults), the prompt filter (a prompt, or a topic's prompts) and the tracked entities' names.
 */
@Injectable()
export class VisibilityScope {
  constructor(
    private readonly brands: BrandAccess,
    private readonly tenancy: TenancyRepository,
    private readonly prompts: TrackedPromptsRepository,
  ) {}

  async resolve(p: Principal, q: BrandPeriodQuery | BrandQuery): Promise<ResolvedScope> {
    if (q.clientId !== undefined && !(await this.tenancy.canSeeClient(p, q.clientId))) throw ApiError.notFound(`Client ${q.clientId}`);
    const brand = await this.brands.resolve(p, q.brandId);
    if (q.clientId !== undefined && brand.clientId !== q.clientId) throw ApiError.notFound(`Brand ${q.brandId}`);
    const period = resolveBrandPeriod(q as BrandPeriodQuery);
    let promptIds: number[] | undefined;
    if ('promptId' in q && q.promptId !== undefined) promptIds = [q.promptId];
    if ('topic' in q && q.topic !== undefined) {
      const ofTopic = await this.prompts.idsOfTopic(brand, q.topic);
      promptIds = promptIds === undefined ? ofTopic : promptIds.filter((id) => ofTopic.includes(id));
    }
    const entities = new Map<string, EntityRef>();
    const brandEntityId = `brand-${brand.id}`;
    entities.set(brandEntityId, { id: brandEntityId, name: brand.name, kind: 'brand' });
    for (const c of await this.tenancy.competitorsOfBrand(brand)) entities.set(`competitor-${c.id}`, { id: `competitor-${c.id}`, name: c.name, kind: 'competitor' });
    return {
      brand,
      period,
      filter: { organizationId: brand.organizationId, brandId: brand.id, start: period.start, end: period.end, provider: period.provider, promptIds },
      entities,
      brandEntityId,
    };
  }

  /** The entity of an id, named even when it is no longer tracked. */
  static entity(scope: ResolvedScope, id: string): EntityRef {
    return scope.entities.get(id) ?? { id, name: id, kind: id.startsWith('brand-') ? 'brand' : 'competitor' };
  }
}
