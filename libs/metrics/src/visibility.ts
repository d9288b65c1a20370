import { rate, type Rate } from './rate';

/**
 * Share of voice of every tracked entity (brand and competitors) over the same answers: its
 * mentions / the mentions of all tracked entities, so the shares add up to 1. Computed over all
 * tracked entities before any filter to one. Every share is null when no tracked entity is
 * mentioned (there is no voice to share), never 0.
 */
export function shareOfVoice<Id>(mentions: ReadonlyMap<Id, number>): Map<Id, number | null> {
  let total = 0;
  for (const m of mentions.values()) {
    if (!Number.isFinite(m) || m < 0) throw new RangeError(`Mentions must be a count (got ${m})`);
    total += m;
  }
  const shares = new Map<Id, number | null>();
  for (const [id, m] of mentions) shares.set(id, total === 0 ? null : m / total);
  return shares;
}

/** Mention rate (visibility) of an entity: answers mentioning it / answers. */
export function mentionRate(answersMentioning: number, answers: number): Rate {
  return rate(answersMentioning, answers);
}

/** A mean with its n (null when n = 0). */
export interface Mean {
  value: number | null;
  n: number;
}

/** A mean from its sum and count, the form read models keep. */
export function mean(sum: number, n: number): Mean {
  if (n < 0 || !Number.isFinite(sum)) throw new RangeError(`A mean needs a finite sum and n >= 0 (sum = ${sum}, n = ${n})`);
  return { value: n === 0 ? null : sum / n, n };
}

/** Average position: the mean rank of the brand over the answers where it is ranked (sum of ranks / ranked answers). */
export function averagePosition(rankSum: number, rankedAnswers: number): Mean {
  return mean(rankSum, rankedAnswers);
}

/** Top-3 rate: answers ranking the brand 1-3 / answers mentioning it. */
export function top3Rate(answersInTop3: number, answersMentioning: number): Rate {
  return rate(answersInTop3, answersMentioning);
}

/** Labelled answers of one entity by sentiment. */
export interface SentimentCounts {
  positive: number;
  neutral: number;
  negative: number;
}

/** Net sentiment = (positive - negative) / labelled answers × 100, in [-100, 100]; null when nothing is labelled. */
export function netSentiment(c: SentimentCounts): Mean {
  const n = c.positive + c.neutral + c.negative;
  return { value: n === 0 ? null : ((c.positive - c.negative) / n) * 100, n };
}

/** Net sentiment [-100, 100] mapped onto 0-100 (for the brand index): -100 → 0, 0 → 50, 100 → 100. */
export function netSentimentOn100(value: number | null): number | null {
  return value === null ? null : (value + 100) / 2;
}
