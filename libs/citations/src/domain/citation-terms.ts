/** Who a cited domain belongs to (DESIGN §13.1 citations): the brand, one of its competitors, or anyone else. */
export const OWNERS = ['brand', 'competitor', 'other'] as const;
export type Owner = (typeof OWNERS)[number];

/** The changes between two answers to the same prompt by the same provider (DESIGN §14). */
export const CHANGE_TYPES = [
  'mention_gained',
  'mention_lost',
  'entered_top3',
  'dropped_from_top3',
  'rank_changed',
  'citation_gained',
  'citation_lost',
  'sentiment_changed',
  'competitor_entered',
] as const;
export type ChangeType = (typeof CHANGE_TYPES)[number];

export const SEVERITIES = ['low', 'medium', 'high'] as const;
export type Severity = (typeof SEVERITIES)[number];

/** Where a candidate prompt was found: a follow-up question the engine suggested, or a question in an answer's text. */
export const DISCOVERY_ORIGINS = ['follow_up', 'answer_text'] as const;
export type DiscoveryOrigin = (typeof DISCOVERY_ORIGINS)[number];
