import { ANALYSIS_RESULTS, ANALYSIS_RUNS, ANSWER_CITATIONS, ANSWER_ENTITIES } from '@libs/analysis';
import type { AnyTableShape } from '@libs/projection-engine';
import { analysisResultsProjector } from './analysis-results.projector';
import { analysisRunsProjector } from './analysis-runs.projector';
import { answerCitationsProjector } from './answer-citations.projector';
import { answerEntitiesProjector } from './answer-entities.projector';
import { CreateAnalysisReadModels1763700006200 } from './migrations/1763700006200-create-analysis-read-models';
import { AddAnswerMarkets1795788895200 } from './migrations/1795788895200-add-answer-markets';

export { analysisRunsProjector, analysisResultsProjector, answerEntitiesProjector, answerCitationsProjector };
/** Analysis runs and answers: runs, results (one per answer), answer entities, answer citations. */
export const ANALYSIS_PROJECTORS = [analysisRunsProjector, analysisResultsProjector, answerEntitiesProjector, answerCitationsProjector];
export const ANALYSIS_MIGRATIONS = { create: CreateAnalysisReadModels1763700006200, markets: AddAnswerMarkets1795788895200 };
/** Their tables' shapes (declared by libs/analysis, which reads them). */
export const ANALYSIS_TABLES: readonly AnyTableShape[] = [ANALYSIS_RUNS, ANALYSIS_RESULTS, ANSWER_ENTITIES, ANSWER_CITATIONS];
