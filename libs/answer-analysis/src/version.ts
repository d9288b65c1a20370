/**
 * The version of the analysis this library computes, stored with every analysis (`engineVersion`).
 * Bump it when a change alters results (rules, lexicon, the sentiment model): `answers reanalyze`
 * then has a reason to re-run history, and projections keep the latest analysis of each answer.
 */
export const ANSWER_ANALYSIS_VERSION = '2.0.0';
