import { PROVIDERS } from '@libs/http';
import { entityFigures, sharesOfVoice, type EntityFigures } from '../domain/entity-sums';
import type { AnswerScopeOf } from '@libs/analysis';
import { groupSums, sumsOf } from './group-sums';
import type { RollupRow } from './rollup-reads';

export interface BrandFigures extends EntityFigures {
  /** The brand's share of voice over the same answers, with n = all tracked entities' mentions. */
  shareOfVoice: { value: number | null; n: number };
}

/** The brand's figures over rows grouped by provider: all providers together, and each provider asked in the period. */
export function brandFigures(scope: Pick<AnswerScopeOf, 'brandEntityId'>, rows: readonly RollupRow[]): { overall: BrandFigures; providers: (BrandFigures & { provider: string })[] } {
  const of = (subset: readonly RollupRow[]): BrandFigures => {
    const byEntity = groupSums(subset, () => 'all').get('all') ?? new Map();
    const { shares, totalMentions } = sharesOfVoice(byEntity);
    return { ...entityFigures(sumsOf(byEntity, scope.brandEntityId)), shareOfVoice: { value: shares.get(scope.brandEntityId) ?? null, n: totalMentions } };
  };
  const asked = new Set(rows.map((r) => r.provider));
  return {
    overall: of(rows),
    providers: PROVIDERS.filter((p) => asked.has(p)).map((provider) => ({ provider, ...of(rows.filter((r) => r.provider === provider)) })),
  };
}
