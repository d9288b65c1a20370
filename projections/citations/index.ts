import { ANSWER_CHANGES } from '@libs/citations';
import type { AnyTableShape } from '@libs/projection-engine';
import { CHANGE_ANSWER_STATES } from './answer-changes.projector';
import { CITATION_RECORDS } from './citation-records.projector';
import { CITATION_SOURCES } from './citation-sources.projector';
import { CITATION_DAILY_ROLLUPS, PROMPT_ANSWERS } from './prompt-answers.projector';
import { PROMPT_DISCOVERIES } from './prompt-discoveries.projector';
import { answerChangesProjector } from './answer-changes.projector';
import { citationRecordsProjector } from './citation-records.projector';
import { citationSourcesProjector } from './citation-sources.projector';
import { CreateCitationReadModels1763700008000 } from './migrations/1763700008000-create-citation-read-models';
import { AddCitationMarkets1795788895400 } from './migrations/1795788895400-add-citation-markets';
import { AddPromptAnswerLabellers1795790812164 } from './migrations/1795790812164-add-prompt-answer-labellers';
import { CreateCitationDailyRollups1795801100000 } from './migrations/1795801100000-create-citation-daily-rollups';
import { promptAnswersProjector } from './prompt-answers.projector';
import { promptDiscoveriesProjector } from './prompt-discoveries.projector';

export { citationRecordsProjector, citationSourcesProjector, promptAnswersProjector, answerChangesProjector, promptDiscoveriesProjector };
/** Citations, prompts and changes (issue 16): cited URLs and their ids, answers seen from their brand, changes between answers, questions found in answers. */
export const CITATION_PROJECTORS = [citationRecordsProjector, citationSourcesProjector, promptAnswersProjector, answerChangesProjector, promptDiscoveriesProjector];
export const CITATION_MIGRATIONS = { create: CreateCitationReadModels1763700008000, markets: AddCitationMarkets1795788895400, labellers: AddPromptAnswerLabellers1795790812164, dailyRollups: CreateCitationDailyRollups1795801100000 };
/** Their tables' shapes (`answer_changes` declared by libs/citations, which reads it row by row). */
export const CITATION_TABLES: readonly AnyTableShape[] = [CITATION_RECORDS, CITATION_SOURCES, PROMPT_ANSWERS, CITATION_DAILY_ROLLUPS, ANSWER_CHANGES, CHANGE_ANSWER_STATES, PROMPT_DISCOVERIES];
