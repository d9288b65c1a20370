import type { AnyTableShape } from '@libs/projection-engine';
import { ANSWER_DAILY_PROVIDER_ROLLUPS, ANSWER_DAILY_ROLLUPS } from '@libs/visibility';
import { ANSWER_ROLLUP_SOURCES } from './answer-rollups.projector';
import { answerRollupsProjector } from './answer-rollups.projector';
import { CreateAnswerRollups1763700007000 } from './migrations/1763700007000-create-answer-rollups';
import { AddRollupMarkets1795788895300 } from './migrations/1795788895300-add-rollup-markets';
import { AddRollupLabellers1795788745766 } from './migrations/1795788745766-add-rollup-labellers';
import { AddRollupSourcesBrandIndex1795799000100 } from './migrations/1795799000100-add-rollup-sources-brand-index';
import { CreateAnswerProviderRollups1795800900000 } from './migrations/1795800900000-create-answer-provider-rollups';

export { answerRollupsProjector, contributionOf } from './answer-rollups.projector';
export * from './brand-rollups-rebuild';
/** Visibility analytics' read models: the daily rollups of analysed answers (per prompt, and per provider). */
export const VISIBILITY_PROJECTORS = [answerRollupsProjector];
export const VISIBILITY_MIGRATIONS = {
  rollups: CreateAnswerRollups1763700007000,
  markets: AddRollupMarkets1795788895300,
  labellers: AddRollupLabellers1795788745766,
  sourcesBrandIndex: AddRollupSourcesBrandIndex1795799000100,
  providerRollups: CreateAnswerProviderRollups1795800900000,
};
/** Their tables' shapes (the rollups declared by libs/visibility, which reads them, from its one list of counters). */
export const VISIBILITY_TABLES: readonly AnyTableShape[] = [ANSWER_DAILY_ROLLUPS, ANSWER_DAILY_PROVIDER_ROLLUPS, ANSWER_ROLLUP_SOURCES];
