import { SentimentLabel } from '../types';

/**
 * What the scorer measures about one entity in one answer, besides the lexicon's net score: where the judgements
 * sit (sentences naming it, its list item, the verdict), what kind they are (recommendations, warnings, conditions,
 * comparisons) and how the answer presents it (ranked first, one of many in a survey, the answer's subject).
 * The order is the model's: a trained model lists the names it was trained on and is refused if they differ.
 */
export const SENTIMENT_FEATURES = [
  'score', // the lexicon's net score, normalised into [-1, 1]
  'praise', // log(1 + favourable evidence)
  'criticism', // log(1 + unfavourable evidence)
  'balance', // smaller side / larger side of the evidence (1: in balance)
  'directPraise', // log(1 + favourable evidence in sentences that name it)
  'directCriticism',
  'inheritedPraise', // log(1 + favourable evidence in its list item or the sentences after it)
  'inheritedCriticism',
  'verdict', // tanh(net evidence in sentences with a verdict cue / 2)
  'closing', // tanh(net evidence in the answer's last block / 2)
  'recommendations', // log(1 + recommendation words about it, not negated)
  'warnings', // log(1 + warnings and negated recommendations about it)
  'conditional', // tanh(net evidence in conditions about it ("if you need ...") / 2)
  'strongestPraise', // tanh(most favourable clause / 3)
  'strongestCriticism', // tanh(most unfavourable clause / 3), ≤ 0
  'compared', // share of the sentences naming it where it is only the reference of a comparison ("cheaper than X")
  'rankedFirst', // 1 when it is the answer's first option
  'inverseRank', // 1 / its place in the answer's order
  'mentions', // log(1 + mention count)
  'noEvidence', // 1 when no clause about it carries any valence
  'body', // log(1 + sentences it inherits: its own list item or paragraph)
  'dominant', // 1 when the answer is mostly about it
  'firstPosition', // index of the first sentence naming it / sentence count
  'crowd', // log(mean number of entities in the sentences naming it)
  'survey', // share of the sentences naming it that list several entities with a survey cue ("options include")
] as const;

export type SentimentFeature = (typeof SENTIMENT_FEATURES)[number];
export const FEATURE_COUNT = SENTIMENT_FEATURES.length;
export const SENTIMENT_CLASSES: readonly SentimentLabel[] = ['positive', 'neutral', 'negative'];

/** Hash buckets of the word features (a power of two): a word's bucket is its scan hash's low bits. */
export const WORD_BUCKETS = 1 << 14;
/** The word features of an entity: each bucket's summed clause weight × WORD_SCALE / sqrt(total clause weight). */
export const WORD_SCALE = 3;

/**
 * A multinomial logistic regression: over the features above, each standardised ((x - mean) / scale), and over the
 * words of the clauses about the entity (hashed into WORD_BUCKETS). The label is the class with the highest score.
 * Trained by `npm run train:sentiment` (eval/train-sentiment.ts).
 */
export interface SentimentModel {
  readonly features: readonly string[];
  readonly mean: readonly number[];
  readonly scale: readonly number[];
  /** One row a class, in SENTIMENT_CLASSES order: [bias, w_1 ... w_F]. */
  readonly weights: readonly (readonly number[])[];
  /** The word weights that are not zero: [bucket, positive, neutral, negative]. */
  readonly words: readonly (readonly [number, number, number, number])[];
  /** How the model was trained (for the record). */
  readonly trainedOn?: { readonly answers: number; readonly labels: number; readonly verticals: readonly string[]; readonly l2: number };
}

/** A model checked against the scorer's features, its word weights in a flat table (bucket × 3 + class). */
export interface CompiledSentimentModel {
  readonly model: SentimentModel;
  readonly wordTable: Float32Array;
}

/** Checks a model against the scorer's features (refusing one trained on another version of them) and compiles it. */
export function compileModel(model: SentimentModel): CompiledSentimentModel {
  const same = model.features.length === FEATURE_COUNT && model.features.every((f, k) => f === SENTIMENT_FEATURES[k]);
  if (!same) throw new Error('sentiment model was trained on other features than the scorer computes');
  if (model.mean.length !== FEATURE_COUNT || model.scale.length !== FEATURE_COUNT) throw new Error('sentiment model: mean and scale need one value a feature');
  if (model.weights.length !== SENTIMENT_CLASSES.length || model.weights.some((w) => w.length !== FEATURE_COUNT + 1)) {
    throw new Error('sentiment model: weights need one row a class of 1 + features values');
  }
  const wordTable = new Float32Array(WORD_BUCKETS * 3);
  for (const [bucket, ...w] of model.words) {
    if (!Number.isInteger(bucket) || bucket < 0 || bucket >= WORD_BUCKETS) throw new Error(`sentiment model: word bucket ${bucket} out of range`);
    for (let c = 0; c < 3; c++) wordTable[bucket * 3 + c] = w[c];
  }
  return { model, wordTable };
}

const SCORES = new Float64Array(3);

/**
 * The label of an entity: its features, and its words as the sum of each clause word's table row weighted by the
 * clause weight (`wordScores`, one a class) over the total clause weight (`wordWeight`).
 */
export function predictLabel(compiled: CompiledSentimentModel, x: ArrayLike<number>, wordScores: ArrayLike<number>, wordWeight: number): SentimentLabel {
  const { mean, scale, weights } = compiled.model;
  const norm = wordWeight > 0 ? WORD_SCALE / Math.sqrt(wordWeight) : 0;
  for (let c = 0; c < 3; c++) {
    const w = weights[c];
    let z = w[0] + wordScores[c] * norm;
    for (let f = 0; f < FEATURE_COUNT; f++) z += w[f + 1] * ((x[f] - mean[f]) / scale[f]);
    SCORES[c] = z;
  }
  let best = 0;
  for (let c = 1; c < 3; c++) if (SCORES[c] > SCORES[best]) best = c;
  return SENTIMENT_CLASSES[best];
}

/** The bucket of a word from its scan hash. */
export function wordBucket(hash: number): number {
  return hash & (WORD_BUCKETS - 1);
}
