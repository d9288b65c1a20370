import { RenderedAnswer } from '../markdown/rendered-answer';
import { ScannedText } from '../text/scan-text';
import { judgeMention, Verdict } from './disambiguate-mention';
import { describeContext } from './mention-context';
import { NameMatcher } from './name-matcher';

/** An accepted mention, offsets in the visible text. */
export interface FoundMention {
  readonly entityIndex: number;
  readonly start: number;
  readonly end: number;
  readonly matchedName: string;
}

/**
 * The mentions among the name candidates the text scan found: names that are not everyday words are accepted as
 * they are; the others are judged from their context (capitals, bold, grammar; see disambiguate-mention).
 */
export function findMentions(rendered: RenderedAnswer, scanned: ScannedText, matcher: NameMatcher): FoundMention[] {
  const n = scanned.candidateCount;
  const found: FoundMention[] = [];
  if (n === 0) return found;
  let verdicts: Verdict[] | null = null;
  let attested: Set<number> | null = null;
  for (let k = 0; k < n; k++) {
    const info = matcher.info(scanned.candName[k]);
    if (!info.ambiguous) continue;
    if (verdicts === null) {
      verdicts = new Array<Verdict>(n).fill('accept');
      attested = new Set<number>();
    }
    const start = scanned.candStart[k];
    const end = scanned.candEnd[k];
    verdicts[k] = judgeMention(info, describeContext(rendered, start, end), start, end);
  }
  if (verdicts !== null && attested !== null) {
    for (let k = 0; k < n; k++) if (verdicts[k] === 'accept') attested.add(matcher.info(scanned.candName[k]).entity.index);
  }
  for (let k = 0; k < n; k++) {
    const info = matcher.info(scanned.candName[k]);
    const v = verdicts === null ? 'accept' : verdicts[k];
    if (v === 'accept' || (v === 'if-attested' && attested !== null && attested.has(info.entity.index))) {
      found.push({ entityIndex: info.entity.index, start: scanned.candStart[k], end: scanned.candEnd[k], matchedName: info.name });
    }
  }
  return found;
}
