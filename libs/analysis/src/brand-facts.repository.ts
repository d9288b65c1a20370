import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { BrandRef } from './tracked-prompts.repository';

/** What a brand registers about itself; answers contradicting it are inaccurate (DESIGN §14, accuracy). */
export interface BrandFactsRecord {
  foundedYear: number | null;
  startingPrice: { amount: number; currency: 'USD' | 'EUR' | 'GBP' } | null;
  headquarters: string | null;
  /** Kept for reference (not checked yet). */
  productNames: string[];
}

export const NO_FACTS: Readonly<BrandFactsRecord> = Object.freeze({ foundedYear: null, startingPrice: null, headquarters: null, productNames: [] });

@Injectable()
export class BrandFactsRepository {
  constructor(private readonly dataSource: DataSource) {}

  async of(brand: BrandRef): Promise<{ facts: BrandFactsRecord; updatedAt: string | null }> {
    const rows: { facts: BrandFactsRecord; updated_at: Date }[] = await this.dataSource.query('SELECT facts, updated_at FROM brand_facts WHERE brand_id = $1 AND organization_id = $2', [brand.id, brand.organizationId]);
    return rows.length ? { facts: { ...NO_FACTS, ...rows[0].facts }, updatedAt: rows[0].updated_at.toISOString() } : { facts: { ...NO_FACTS }, updatedAt: null };
  }

  async put(brand: BrandRef, facts: BrandFactsRecord): Promise<{ facts: BrandFactsRecord; updatedAt: string | null }> {
    await this.dataSource.query(
      `INSERT INTO brand_facts (brand_id, organization_id, facts) VALUES ($1, $2, $3) ON CONFLICT (brand_id) DO UPDATE SET facts = EXCLUDED.facts, updated_at = now()`,
      [brand.id, brand.organizationId, facts],
    );
    return this.of(brand);
  }
}
