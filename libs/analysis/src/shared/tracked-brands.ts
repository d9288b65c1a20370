import { Injectable } from '@nestjs/common';
import { TenancyRepository } from '@libs/tenancy';
import type { TrackedBrand } from './analyse-answer';

const TTL_MS = 60_000;

/** The brand and competitors an answer is analysed against, read through tenancy and cached a minute (names and aliases change rarely). */
@Injectable()
export class TrackedBrands {
  private readonly cache = new Map<number, { at: number; value: TrackedBrand | null }>();

  constructor(private readonly tenancy: TenancyRepository) {}

  /** Drops the cached brand (its names or domains just changed). */
  forget(brandId: number): void {
    this.cache.delete(brandId);
  }

  async of(organizationId: number, brandId: number): Promise<TrackedBrand | null> {
    const hit = this.cache.get(brandId);
    if (hit && Date.now() - hit.at < TTL_MS) return hit.value;
    const brand = await this.tenancy.findBrand({ organizationId, clientId: null }, brandId);
    const value = brand ? { brand, competitors: await this.tenancy.competitorsOfBrand(brand) } : null;
    if (this.cache.size >= 10_000) this.cache.clear();
    this.cache.set(brandId, { at: Date.now(), value });
    return value;
  }
}
