import { Injectable } from '@nestjs/common';
import type { Principal } from '@libs/auth';
import { addDays, utcDay, type DayKey } from '@libs/metrics';
import { BrandAccess, TenancyRepository } from '@libs/tenancy';

/** Which visits a read is over: the organisation, its days, and the brands or host it is narrowed to. */
export interface AgentFilter {
  organizationId: number;
  start: DayKey;
  end: DayKey;
  /** Only these brands (a brandId, or a client-bound credential's brands); null: the whole organisation. */
  brandIds: number[] | null;
  host: string | null;
}

/**
 * The filter of an agent-analytics read: the caller's organisation; a brand (404 unless the caller
 * may see it); a client-bound credential sees only its client's brands' visits (visits to hosts
 * of no brand are the organisation's); the last `days` UTC days, today included.
 */
@Injectable()
export class AgentScope {
  constructor(
    private readonly brands: BrandAccess,
    private readonly tenancy: TenancyRepository,
  ) {}

  async resolve(p: Principal, q: { brandId?: number; host?: string }, days: number, today: DayKey = utcDay(Date.now())): Promise<AgentFilter> {
    let brandIds: number[] | null = null;
    if (q.brandId !== undefined) brandIds = [(await this.brands.scopeOf(p, { brandId: q.brandId })).id];
    else if (p.clientId !== null) brandIds = (await this.tenancy.listBrands(p)).map((b) => b.id);
    return { organizationId: p.organizationId, start: addDays(today, -(days - 1)), end: today, brandIds, host: q.host?.toLowerCase() ?? null };
  }
}
