import { Injectable } from '@nestjs/common';
import { TenancyRepository } from '@libs/tenancy';
import { BrandFactsRepository } from '../brand-facts.repository';
import type { TrackedBrand } from './analyse-answer';

const TTL_MS = 60_000;

/** The brand, competitors and facts an answer is analysed against: names and domains cached a minute (they change rarely), facts read each time. */
@Injectable()
export class TrackedBrands {
  private readonly cache = new Map<number, { at: number; value: Omit<TrackedBrand, 'facts'> | null }>();

  constructor(
    private readonly tenancy: TenancyRepository,
    private readonly facts: BrandFactsRepository,
  ) {}

  /** Drops the cached brand (its names or domains just changed). */
  forget(brandId: number): void {
    this.cache.delete(brandId);
  }

  async of(organizationId: number, brandId: number): Promise<TrackedBrand | null> {
    const value = await this.namesOf(organizationId, brandId);
    // Facts are read every time (one key lookup): an answer analysed after a PUT is checked against the new facts.
    return value && { ...value, facts: (await this.facts.of({ id: brandId, organizationId })).facts };
  }

  /** The brand and its competitors (names and domains, cached a minute) without its facts: what a question's engine is told to look for. */
  async namesOf(organizationId: number, brandId: number): Promise<Omit<TrackedBrand, 'facts'> | null> {
    const hit = this.cache.get(brandId);
    if (hit && Date.now() - hit.at < TTL_MS) return hit.value;
    const brand = await this.tenancy.findBrand({ organizationId, clientId: null }, brandId);
    const value = brand ? { brand, competitors: await this.tenancy.competitorsOfBrand(brand) } : null;
    if (this.cache.size >= 10_000) this.cache.clear();
    this.cache.set(brandId, { at: Date.now(), value });
    return value;
  }
}
