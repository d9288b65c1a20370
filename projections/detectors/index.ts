import { ANSWER_FACTS } from '@libs/detectors';
import type { AnyTableShape } from '@libs/projection-engine';
import { answerFactsProjector } from './answer-facts.projector';
import { CreateAnswerFacts1795789640644 } from './migrations/1795789640644-create-answer-facts';
import { AddAnswerFactsMarkets1795790900100 } from './migrations/1795790900100-add-answer-facts-markets';
import { AnswerFactsSeriesRead1795796400000 } from './migrations/1795796400000-answer-facts-series-read';

export { answerFactsProjector };
/** The detectors' narrow facts of the analysed answers (issue 34, part 4). */
export const DETECTOR_PROJECTORS = [answerFactsProjector];
export const DETECTOR_MIGRATIONS = { answerFacts: CreateAnswerFacts1795789640644, markets: AddAnswerFactsMarkets1795790900100, seriesRead: AnswerFactsSeriesRead1795796400000 };
/** Their tables' shapes (declared by libs/detectors, which reads them). */
export const DETECTOR_TABLES: readonly AnyTableShape[] = [ANSWER_FACTS];
