import { averagePosition, mean, mentionRate, netSentiment, rate, shareOfVoice, top3Rate, type Mean, type Rate } from '@libs/metrics';

/** The rollups' counters of one tracked entity, summed over a set of cells (days, providers, prompts). */
export interface EntitySums {
  answers: number;
  mentioned: number;
  mentions: number;
  ranked: number;
  rankSum: number;
  top3: number;
  positive: number;
  neutral: number;
  negative: number;
  scoreSum: number;
  cited: number;
  withCitations: number;
  citations: number;
  allCitations: number;
  visibilitySum: number;
  checkable: number;
  accurate: number;
}

export const EMPTY_SUMS: Readonly<EntitySums> = Object.freeze({
  answers: 0,
  mentioned: 0,
  mentions: 0,
  ranked: 0,
  rankSum: 0,
  top3: 0,
  positive: 0,
  neutral: 0,
  negative: 0,
  scoreSum: 0,
  cited: 0,
  withCitations: 0,
  citations: 0,
  allCitations: 0,
  visibilitySum: 0,
  checkable: 0,
  accurate: 0,
});

const SUM_KEYS = Object.keys(EMPTY_SUMS) as (keyof EntitySums)[];

/** Adds `b` into `into` (a sums object the caller owns) and returns it. */
export function addSumsInto(into: EntitySums, b: EntitySums): EntitySums {
  for (const k of SUM_KEYS) into[k] += b[k];
  return into;
}

/** The visibility figures of one entity (DESIGN §14) from its sums. */
export interface EntityFigures {
  mentionRate: Rate;
  averagePosition: Mean;
  top3Rate: Rate;
  citationRate: Rate;
  citationShare: Mean;
  visibilityShare: Mean;
  accuracy: Rate;
  sentiment: { positive: number; neutral: number; negative: number; net: Mean; meanScore: Mean };
}

export function entityFigures(s: EntitySums): EntityFigures {
  const labelled = s.positive + s.neutral + s.negative;
  return {
    mentionRate: mentionRate(s.mentioned, s.answers),
    averagePosition: averagePosition(s.rankSum, s.ranked),
    top3Rate: top3Rate(s.top3, s.mentioned),
    citationRate: rate(s.cited, s.withCitations),
    citationShare: mean(s.citations, s.allCitations),
    visibilityShare: mean(s.visibilitySum, s.answers),
    accuracy: rate(s.accurate, s.checkable),
    sentiment: { positive: s.positive, neutral: s.neutral, negative: s.negative, net: netSentiment(s), meanScore: mean(s.scoreSum, labelled) },
  };
}

/**
 * Share of voice of every entity over the same answers: its mentions / all tracked entities'
 * mentions (the shares add up to 1; null when none is mentioned). `n` is the total mentions.
 */
export function sharesOfVoice(byEntity: ReadonlyMap<string, EntitySums>): { shares: Map<string, number | null>; totalMentions: number } {
  const mentions = new Map<string, number>();
  let total = 0;
  for (const [id, s] of byEntity) {
    mentions.set(id, s.mentions);
    total += s.mentions;
  }
  return { shares: shareOfVoice(mentions), totalMentions: total };
}
