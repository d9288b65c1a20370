import { answerChangesProjector } from './answer-changes.projector';
import { citationRecordsProjector } from './citation-records.projector';
import { citationSourcesProjector } from './citation-sources.projector';
import { CreateCitationReadModels1763700008000 } from './migrations/1763700008000-create-citation-read-models';
import { promptAnswersProjector } from './prompt-answers.projector';
import { promptDiscoveriesProjector } from './prompt-discoveries.projector';

export { citationRecordsProjector, citationSourcesProjector, promptAnswersProjector, answerChangesProjector, promptDiscoveriesProjector };
/** Citations, prompts and changes (issue 16): cited URLs and their ids, answers seen from their brand, changes between answers, questions found in answers. */
export const CITATION_PROJECTORS = [citationRecordsProjector, citationSourcesProjector, promptAnswersProjector, answerChangesProjector, promptDiscoveriesProjector];
export const CITATION_MIGRATIONS = { create: CreateCitationReadModels1763700008000 };
