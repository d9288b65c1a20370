import { mentionRate } from '@libs/metrics';
import { sharesOfVoice, type EntitySums } from '../domain/entity-sums';
import { AnswerScope, type AnswerScopeOf } from '@libs/analysis';
import type { SovEntryDto } from './figure.dto';

/** Share-of-voice entries of every tracked entity over the same answers (brand first), for one provider or all (null). */
export function sovEntries(scope: Pick<AnswerScopeOf, 'entities'>, provider: string | null, byEntity: ReadonlyMap<string, Pick<EntitySums, 'answers' | 'mentioned' | 'mentions'>>): SovEntryDto[] {
  const { shares, totalMentions } = sharesOfVoice(byEntity);
  const ids = [...new Set([...scope.entities.keys(), ...byEntity.keys()])];
  return ids.map((id) => {
    const s = byEntity.get(id);
    return {
      provider,
      entity: AnswerScope.entity(scope, id),
      mentions: s?.mentions ?? 0,
      shareOfVoice: s ? (shares.get(id) ?? null) : totalMentions > 0 ? 0 : null,
      mentionRate: mentionRate(s?.mentioned ?? 0, s?.answers ?? 0),
    };
  });
}
