import type { AnswerFilter } from '../read-model/answer-filter';

/** A candidate prompt as one source found it. */
export interface DiscoveryCandidate {
  /** The comparison key (questionKey): candidates of several sources with one key are one. */
  key: string;
  question: string;
  /** Where it was found, and how often there. */
  origins: { origin: string; occurrences: number; clicks?: number }[];
  /** Answers it was found in (0 for a query source: SearchConsoleDiscoveries). */
  answers: number;
  providers: string[];
  prompts: string[];
  firstSeen: string;
  lastSeen: string;
}

/**
 * A place candidate prompts come from. Answers are one (follow-up questions and questions in the
 * text); Search Console queries are another (SearchConsoleDiscoveries, over the channels' read
 * model). Each is listed in DISCOVERY_SOURCES in CitationsModule, and the endpoint merges them.
 */
export interface DiscoverySource {
  candidates(filter: AnswerFilter, excludedKeys: readonly string[], limit: number): Promise<DiscoveryCandidate[]>;
}

/** The DiscoverySource[] the discoveries endpoint merges. */
export const DISCOVERY_SOURCES = Symbol('DISCOVERY_SOURCES');
