import { AnswerAnalysis, SentimentLabel } from '../types';

/** The four label fields of the corpus, in their exact format. */
export interface AnswerLabels {
  readonly mentions: Record<string, number>;
  readonly order: string[];
  readonly citations: { url: string; domain: string }[];
  readonly sentiment: Record<string, SentimentLabel>;
}

/** An analysis in the labels' format: mention counts for every entity, the order, citations {url, domain} in order, sentiment for mentioned entities only. */
export function toLabels(analysis: AnswerAnalysis): AnswerLabels {
  const mentions: Record<string, number> = {};
  const sentiment: Record<string, SentimentLabel> = {};
  for (const e of analysis.entities) {
    mentions[e.entityId] = e.mentionCount;
    if (e.mentionCount > 0 && e.sentiment !== null) sentiment[e.entityId] = e.sentiment.label;
  }
  return {
    mentions,
    order: [...analysis.order],
    citations: analysis.citations.map((c) => ({ url: c.url, domain: c.domain })),
    sentiment,
  };
}
