import { hostMatchesDomains } from '../citations/domain-owner';
import { MentionContext } from './mention-context';
import { NameInfo } from './name-info';

/**
 * Deciding whether an occurrence of a name made of everyday words ("Notion", "Current", "Home Chef") names the entity.
 * The evidence is general, not a list of names: capitalisation where the word would otherwise be lower case, bold or
 * linked text, headings and table cells, possessives, and the grammar around the word at the start of a sentence
 * (a verb after it makes it a subject; a lower-case noun after it makes it an adjective or preposition).
 */
export type Verdict = 'accept' | 'reject' | 'if-attested';

/** Words that, right after a name at the start of a sentence, show it is the subject: auxiliaries, common verbs, adverbs. */
const SUBJECT_FOLLOWERS = new Set([
  'is', 'was', 'are', 'were', 'has', 'had', 'have', 'does', 'did', 'do', 'can', 'could', 'will', 'would', 'should', 'may', 'might', 'must',
  "isn't", "doesn't", "hasn't", "wasn't", "can't", "won't", "didn't", "wouldn't", "couldn't", "shouldn't", "aren't",
  'also', 'still', 'now', 'already', 'really', 'actually', 'often', 'usually', 'generally', 'typically', 'recently', 'currently', 'remains', 'became', 'becomes',
  'offers', 'provides', 'includes', 'lets', 'gives', 'makes', 'costs', 'charges', 'supports', 'works', 'runs', 'uses', 'starts', 'comes', 'wins', 'holds', 'keeps',
  'sells', 'feels', 'looks', 'allows', 'lacks', 'excels', 'integrates', 'stands', 'leads', 'beats', 'tends', 'seems', 'gets', 'takes', 'delivers', 'focuses',
  'targets', 'handles', 'requires', 'shines', 'suits', 'scores', 'ranks', 'rates', 'needs', 'wants', 'says', 'said', 'announced', 'launched', 'added', 'charged',
]);

/** Words before a lower-case common noun that make it an ordinary noun phrase ("a vague notion", "the biggest factor"). */
const DETERMINERS = new Set(['a', 'an', 'the', 'this', 'that', 'these', 'those', 'your', 'my', 'our', 'their', 'its', 'his', 'her', 'some', 'any', 'every', 'each', 'no', 'another', 'one', 'such']);

/** Words before a day or month name that make it a date ("every Monday", "on Monday", "a Monday"). */
const DATE_LEADERS = new Set(['a', 'an', 'every', 'each', 'on', 'next', 'last', 'this', 'that', 'per', 'until', 'till', 'by', 'since', 'from', 'one', 'any', 'some', 'following', 'previous', 'coming', 'late', 'early', 'mid']);
const DATE_FOLLOWERS = new Set(['morning', 'mornings', 'afternoon', 'afternoons', 'evening', 'evenings', 'night', 'nights', 'through', 'thru', 'to', 'or']);

function firstIsUpper(s: string): boolean {
  const c = s.charAt(0);
  return c !== c.toLowerCase();
}

/** Inner words that the tracked spelling capitalises are capitalised here too ("Home Chef", not "home chef"). */
function innerCapitalsMatch(info: NameInfo, surface: string): boolean {
  if (info.words.length < 2) return false;
  const parts = surface.split(/[ \t]+/);
  let any = false;
  for (let k = 1; k < info.words.length && k < parts.length; k++) {
    if (firstIsUpper(info.words[k])) {
      if (!firstIsUpper(parts[k])) return false;
      any = true;
    }
  }
  return any;
}

function isStrongPosition(info: NameInfo, ctx: MentionContext, start: number, end: number): boolean {
  if (ctx.inBold) return true;
  if (ctx.linkUrl !== null && hostMatchesDomains(ctx.linkUrl, info.entity.domains)) return true;
  const b = ctx.block;
  if (b.kind === 'heading' || b.kind === 'boldLine') return true;
  if ((b.kind === 'tableRow' || b.kind === 'tableHeader') && end <= b.leadEnd && start >= b.start) return true;
  return false;
}

export function judgeMention(info: NameInfo, ctx: MentionContext, start: number, end: number): Verdict {
  if (!info.ambiguous) return 'accept';
  const surfaceUpper = firstIsUpper(ctx.surface);
  const nextLower = ctx.nextWord.toLowerCase();
  const prevLower = ctx.previousWord.toLowerCase();

  if (!surfaceUpper) {
    if (info.capitalised) {
      // "than notion does": the lower-case word used as a subject, in an answer that names the entity elsewhere.
      if (SUBJECT_FOLLOWERS.has(nextLower) && !DETERMINERS.has(prevLower) && !DETERMINERS.has(ctx.wordBeforePrevious.toLowerCase())) return 'if-attested';
      return 'reject';
    }
    // Tracked in lower case ("smart"): only bold, linked or headed text tells the name from the word.
    return isStrongPosition(info, ctx, start, end) && !DETERMINERS.has(prevLower) ? 'accept' : 'reject';
  }

  if (info.calendar) {
    if (DATE_LEADERS.has(prevLower) || DATE_FOLLOWERS.has(nextLower)) return 'reject';
    if (isStrongPosition(info, ctx, start, end) || ctx.possessive) return 'accept';
    return 'if-attested';
  }

  if (isStrongPosition(info, ctx, start, end) || ctx.possessive || innerCapitalsMatch(info, ctx.surface)) return 'accept';
  if (!ctx.clauseStart) return 'accept'; // capitalised in mid-sentence
  // At the start of a sentence the capital proves nothing: read what follows.
  if (ctx.nextWord === '') return 'accept'; // followed by punctuation: "Ghost(Pro)", "Close, HubSpot and ..."
  if (firstIsUpper(ctx.nextWord) || /^[0-9]/.test(ctx.nextWord)) return 'accept';
  if (SUBJECT_FOLLOWERS.has(nextLower)) return 'accept';
  if ((nextLower === 'and' || nextLower === 'or') && firstIsUpper(ctx.wordAfterNext)) return 'accept';
  return 'reject';
}
