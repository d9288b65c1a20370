import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { DEFAULT_BRAND_INDEX_WEIGHTS, type BrandIndexComponentName, type BrandIndexWeights } from '@libs/metrics';
import { organizationFacts, type OrganizationFactRow } from '@libs/tenancy';

export const BRAND_INDEX_COMPONENTS = Object.keys(DEFAULT_BRAND_INDEX_WEIGHTS) as BrandIndexComponentName[];

export class WeightsInputError extends Error {
  override readonly name = 'WeightsInputError';
}

/** Parses `mentionRate=30,shareOfVoice=25,…` over the defaults: each weight 0-100, at least one above 0. */
export function parseWeights(text: string, base: BrandIndexWeights = DEFAULT_BRAND_INDEX_WEIGHTS): BrandIndexWeights {
  const weights = { ...base };
  for (const part of text.split(',').map((p) => p.trim()).filter(Boolean)) {
    const [name, value] = part.split('=').map((s) => s.trim());
    if (!(BRAND_INDEX_COMPONENTS as string[]).includes(name)) throw new WeightsInputError(`unknown component "${name}"; known: ${BRAND_INDEX_COMPONENTS.join(', ')}`);
    const n = Number(value);
    if (value === undefined || value === '' || !Number.isFinite(n) || n < 0 || n > 100) throw new WeightsInputError(`${name} must be a number from 0 to 100`);
    weights[name as BrandIndexComponentName] = n;
  }
  if (BRAND_INDEX_COMPONENTS.every((c) => weights[c] === 0)) throw new WeightsInputError('at least one weight must be above 0');
  return weights;
}

/** The weights in force from an organisation's stored ones (null: none set, the defaults of DESIGN §14). */
export function weightsOf(stored: BrandIndexWeights | null): { weights: BrandIndexWeights; custom: boolean } {
  return stored !== null ? { weights: { ...DEFAULT_BRAND_INDEX_WEIGHTS, ...stored }, custom: true } : { weights: { ...DEFAULT_BRAND_INDEX_WEIGHTS }, custom: false };
}

/** Brand-index weights by organisation (the defaults of DESIGN §14 when none are set). */
@Injectable()
export class BrandIndexWeightsRepository {
  constructor(private readonly dataSource: DataSource) {}

  async of(organizationId: number): Promise<{ weights: BrandIndexWeights; custom: boolean }> {
    const rows: { weights: BrandIndexWeights }[] = await this.dataSource.query('SELECT weights FROM brand_index_weights WHERE organization_id = $1', [organizationId]);
    return weightsOf(rows.length ? rows[0].weights : null);
  }

  async set(organizationId: number, weights: BrandIndexWeights | null): Promise<{ weights: BrandIndexWeights; custom: boolean }> {
    if (weights === null) await this.dataSource.query('DELETE FROM brand_index_weights WHERE organization_id = $1', [organizationId]);
    else {
      const exists = organizationFacts(organizationId);
      const org: OrganizationFactRow[] = await this.dataSource.query(exists.text, exists.params);
      if (!org.length) throw new WeightsInputError(`organisation ${organizationId} does not exist`);
      await this.dataSource.query(
        `INSERT INTO brand_index_weights (organization_id, weights) VALUES ($1, $2) ON CONFLICT (organization_id) DO UPDATE SET weights = EXCLUDED.weights, updated_at = now()`,
        [organizationId, weights],
      );
    }
    return this.of(organizationId);
  }
}
