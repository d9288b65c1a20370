/** Public data shapes of the answer-analysis library. */

export type EntityKind = 'brand' | 'competitor';

/** A tracked brand or competitor: its display name, other names it goes by, and the web domains it owns. */
export interface TrackedEntity {
  readonly id: string;
  readonly kind: EntityKind;
  readonly name: string;
  readonly aliases?: readonly string[];
  readonly domains?: readonly string[];
}

/** A source the engine returned beside the text (Perplexity, Gemini, AI Overviews). */
export interface ProviderCitation {
  readonly url: string;
  readonly title?: string;
}

export interface AnswerInput {
  /** The answer as the engine returned it (markdown). */
  readonly answer: string;
  readonly providerCitations?: readonly ProviderCitation[];
  readonly entities: readonly TrackedEntity[];
}

export type SentimentLabel = 'positive' | 'neutral' | 'negative';

export interface EntitySentiment {
  /** In [-1, 1]. */
  readonly score: number;
  readonly label: SentimentLabel;
}

/** One accepted occurrence of an entity's name in the visible text. */
export interface MentionOccurrence {
  readonly entityId: string;
  /** The words as written in the answer. */
  readonly surface: string;
  /** The tracked name or alias it matched. */
  readonly matchedName: string;
  /** Offsets in the answer's markdown (end exclusive). */
  readonly start: number;
  readonly end: number;
  /** Index of the sentence holding it. */
  readonly sentenceIndex: number;
}

export interface EntityAnalysis {
  readonly entityId: string;
  readonly kind: EntityKind;
  readonly name: string;
  readonly mentionCount: number;
  /** Offset of the first mention in the answer's markdown, or null when never mentioned. */
  readonly firstOffset: number | null;
  /** 1-based place in the answer's ranking, or null when never mentioned. */
  readonly rank: number | null;
  /** The sentences (visible text) that mention it, in order. */
  readonly sentences: readonly string[];
  /** Null when never mentioned. */
  readonly sentiment: EntitySentiment | null;
  /** GEO position-adjusted word count share, in [0, 1]. */
  readonly visibility: number;
  readonly mentions: readonly MentionOccurrence[];
}

export type CitationOwner =
  | { readonly kind: 'brand'; readonly entityId: string }
  | { readonly kind: 'competitor'; readonly entityId: string }
  | { readonly kind: 'other' };

export interface CitationAnalysis {
  /** Normalised URL (fragment, utm_* parameters and trailing slash removed). */
  readonly url: string;
  /** The URL as first seen. */
  readonly originalUrl: string;
  /** Host name, lower case. */
  readonly host: string;
  /** Host without a leading "www." (the labels' `domain`). */
  readonly domain: string;
  /** Registrable domain from the public-suffix list (e.g. "bbc.co.uk"), or the host when it has none (IP addresses, localhost). */
  readonly registrableDomain: string;
  /** 1-based order of first appearance. */
  readonly order: number;
  /** Where it was first seen: in the answer text or in the provider's list. */
  readonly source: 'inline' | 'provider';
  /** Also present in the other place. */
  readonly alsoIn: 'inline' | 'provider' | null;
  readonly owner: CitationOwner;
}

export interface AnswerAnalysis {
  readonly entities: readonly EntityAnalysis[];
  /** Mentioned entity ids, best placed first. */
  readonly order: readonly string[];
  readonly citations: readonly CitationAnalysis[];
  /** URLs that could not be parsed (skipped from `citations`). */
  readonly invalidUrls: readonly string[];
  readonly brand: {
    readonly entityId: string | null;
    readonly mentioned: boolean;
    readonly rank: number | null;
  };
  /** Competitors mentioned in an answer that does not mention the brand (the raw material of prompt gaps); empty otherwise. */
  readonly competitorsMentionedWithoutBrand: readonly string[];
  readonly sentenceCount: number;
}
