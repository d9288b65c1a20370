import { ANSWER_FACTS } from '@libs/detectors';
import type { AnyTableShape } from '@libs/projection-engine';
import { answerFactsProjector } from './answer-facts.projector';
import { AddAnswerFactsMarkets1795793109700 } from './migrations/1795793109700-add-answer-facts-markets';
import { CreateAnswerFacts1795789640644 } from './migrations/1795789640644-create-answer-facts';

export { answerFactsProjector };
/** The detectors' narrow facts of the analysed answers (issue 34, part 4). */
export const DETECTOR_PROJECTORS = [answerFactsProjector];
export const DETECTOR_MIGRATIONS = { answerFacts: CreateAnswerFacts1795789640644, answerFactsMarkets: AddAnswerFactsMarkets1795793109700 };
/** Their tables' shapes (declared by libs/detectors, which reads them). */
export const DETECTOR_TABLES: readonly AnyTableShape[] = [ANSWER_FACTS];
