import { averagePosition, mean, mentionRate, netSentiment, rate, shareOfVoice, top3Rate, type Mean, type Rate } from '@libs/metrics';

/**
 * The rollups' counters (DESIGN §14's numerators and denominators), the one list every other is
 * derived from: the sums of an entity (`EntitySums`), the empty sums, the rollup table's counter
 * columns (each name in snake_case: `rankSum` is `rank_sum`) and their types (`whole`: integer,
 * `real`: float8), the reader's sums and their mapping, and the order of an answer's stored
 * contribution (`answer_rollup_sources`). That order is stored: add a counter at the end, never reorder.
 */
export const ROLLUP_COUNTERS = {
  answers: 'whole',
  mentioned: 'whole',
  mentions: 'whole',
  ranked: 'whole',
  rankSum: 'whole',
  top3: 'whole',
  positive: 'whole',
  neutral: 'whole',
  negative: 'whole',
  scoreSum: 'real',
  cited: 'whole',
  withCitations: 'whole',
  citations: 'whole',
  allCitations: 'whole',
  visibilitySum: 'real',
  checkable: 'whole',
  accurate: 'whole',
  /** Labelled answers whose label the sentiment judge decided (the others: the offline model). */
  judged: 'whole',
  /** Labelled answers whose judge call fell back to the offline label (failure, refusal, malformed reply). */
  judgeFallbacks: 'whole',
} as const satisfies Record<string, 'whole' | 'real'>;

export type RollupCounter = keyof typeof ROLLUP_COUNTERS;

/** The counters in their (stored) order. */
export const ROLLUP_COUNTER_NAMES = Object.freeze(Object.keys(ROLLUP_COUNTERS) as RollupCounter[]);

/** The rollups' counters of one tracked entity, summed over a set of cells (days, providers, prompts). */
export type EntitySums = Record<RollupCounter, number>;

export const EMPTY_SUMS: Readonly<EntitySums> = Object.freeze(Object.fromEntries(ROLLUP_COUNTER_NAMES.map((k) => [k, 0])) as EntitySums);

/** The visibility figures of one entity (DESIGN §14) from its sums. */
export interface EntityFigures {
  mentionRate: Rate;
  averagePosition: Mean;
  top3Rate: Rate;
  citationRate: Rate;
  citationShare: Mean;
  visibilityShare: Mean;
  accuracy: Rate;
  sentiment: { positive: number; neutral: number; negative: number; net: Mean; meanScore: Mean; judged: number; judgeFallbacks: number };
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
    sentiment: { positive: s.positive, neutral: s.neutral, negative: s.negative, net: netSentiment(s), meanScore: mean(s.scoreSum, labelled), judged: s.judged, judgeFallbacks: s.judgeFallbacks },
  };
}

/**
 * Share of voice of every entity over the same answers: its mentions / all tracked entities'
 * mentions (the shares add up to 1; null when none is mentioned). `n` is the total mentions.
 */
export function sharesOfVoice(byEntity: ReadonlyMap<string, Pick<EntitySums, 'mentions'>>): { shares: Map<string, number | null>; totalMentions: number } {
  const mentions = new Map<string, number>();
  let total = 0;
  for (const [id, s] of byEntity) {
    mentions.set(id, s.mentions);
    total += s.mentions;
  }
  return { shares: shareOfVoice(mentions), totalMentions: total };
}
