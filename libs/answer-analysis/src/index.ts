/** Answer analysis: mentions, ranking, citations, sentiment and visibility of tracked entities in AI answers. Pure: no I/O outside `jsonl/`. */
export * from './types';
export { ANSWER_ANALYSIS_VERSION } from './version';
export * from './errors';
export { analyzeAnswer, createAnalyzer } from './analyze-answer';
export type { AnswerAnalyzer, AnswerText } from './analyze-answer';
export { normaliseUrl, labelDomain } from './citations/normalise-url';
export type { NormalisedUrl } from './citations/normalise-url';
export { registrableDomain } from './citations/domain-owner';
export { positionAdjustedWordCountShares } from './visibility/position-adjusted-word-count';
export type { SentenceCredit } from './visibility/position-adjusted-word-count';
export { renderMarkdown } from './markdown/render-markdown';
export type { RenderedAnswer, Block, BlockKind } from './markdown/rendered-answer';
export { analyzeJsonlStream } from './jsonl/analyze-jsonl';
export type { JsonlSummary } from './jsonl/analyze-jsonl';
export { toLabels } from './jsonl/to-labels';
export type { AnswerLabels } from './jsonl/to-labels';
export { parseCorpusLine } from './jsonl/parse-corpus-line';
export type { CorpusLine } from './jsonl/parse-corpus-line';
