import { answerRollupsProjector } from './answer-rollups.projector';
import { CreateAnswerRollups1763700007000 } from './migrations/1763700007000-create-answer-rollups';

export { answerRollupsProjector, contributionOf } from './answer-rollups.projector';
/** Visibility analytics' read models: the daily rollups of analysed answers. */
export const VISIBILITY_PROJECTORS = [answerRollupsProjector];
export const VISIBILITY_MIGRATIONS = { rollups: CreateAnswerRollups1763700007000 };
