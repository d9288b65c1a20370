import { ANALYSIS_RESULTS, ANALYSIS_RUNS, ANSWER_CITATIONS, ANSWER_ENTITIES, ANSWER_USAGE } from '@libs/analysis';
import type { AnyTableShape } from '@libs/projection-engine';
import { analysisResultsProjector } from './analysis-results.projector';
import { analysisRunsProjector } from './analysis-runs.projector';
import { answerCitationsProjector } from './answer-citations.projector';
import { answerEntitiesProjector } from './answer-entities.projector';
import { answerUsageProjector } from './answer-usage.projector';
import { CreateAnalysisReadModels1763700006200 } from './migrations/1763700006200-create-analysis-read-models';
import { AddAnswerUsage1795788897200 } from './migrations/1795788897200-add-answer-usage';
import { AddAnswerMarkets1795788895200 } from './migrations/1795788895200-add-answer-markets';
import { AddAnswerUsageMarkets1795790900000 } from './migrations/1795790900000-add-answer-usage-markets';
import { AddJudgeUsage1795793109600 } from './migrations/1795793109600-add-judge-usage';

export { analysisRunsProjector, analysisResultsProjector, answerEntitiesProjector, answerCitationsProjector, answerUsageProjector };
/** Analysis runs and answers: runs, results (one per answer), answer entities, answer citations, answer tokens. */
export const ANALYSIS_PROJECTORS = [analysisRunsProjector, analysisResultsProjector, answerEntitiesProjector, answerCitationsProjector, answerUsageProjector];
export const ANALYSIS_MIGRATIONS = { create: CreateAnalysisReadModels1763700006200, markets: AddAnswerMarkets1795788895200, usage: AddAnswerUsage1795788897200, usageMarkets: AddAnswerUsageMarkets1795790900000, judgeUsage: AddJudgeUsage1795793109600 };
/** Their tables' shapes (declared by libs/analysis, which reads them). */
export const ANALYSIS_TABLES: readonly AnyTableShape[] = [ANALYSIS_RUNS, ANALYSIS_RESULTS, ANSWER_ENTITIES, ANSWER_CITATIONS, ANSWER_USAGE];
