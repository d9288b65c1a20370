/**
 * Training and honest evaluation of the sentiment model: a multinomial logistic regression over the scorer's features
 * and the hashed words of the clauses about each entity (src/sentiment/sentiment-model.ts), fitted by full-batch
 * gradient descent with L2 regularisation. Pure: the corpus comes in as text, the model goes out as a value.
 */
import { createAnalyzer, parseCorpusLine } from '../src/index';
import { compileModel, FEATURE_COUNT, predictLabel, SENTIMENT_CLASSES, SENTIMENT_FEATURES, SentimentModel, WORD_BUCKETS, WORD_SCALE } from '../src/sentiment/sentiment-model';
import type { Sentiment } from './score-labels';

/** One labelled entity of one answer: its features (null when the engine found no mention of it) and its label. */
export interface SentimentSample {
  readonly id: string;
  readonly vertical: string;
  readonly entityId: string;
  readonly expected: Sentiment;
  readonly features: Float64Array | null;
  /** Words of the clauses about it: bucket → summed clause weight, and the total. */
  readonly words: ReadonlyMap<number, number> | null;
  readonly wordWeight: number;
}

export interface TrainingOptions {
  /** L2 penalty on the weights (not the biases), per sample. */
  readonly l2: number;
  /** Weigh each class by n / (3 · n_class), so that rare classes (negative) count as much as common ones. */
  readonly balanced: boolean;
  /** Leave the word features out (the scorer's dense features only). */
  readonly withoutWords?: boolean;
  readonly iterations?: number;
}

/** The training settings of the shipped model (chosen by the leave-one-vertical-out comparison in docs/decisions.md). */
export const TRAINING: TrainingOptions = { l2: 0.01, balanced: true, iterations: 300 };

/** Every labelled entity of the corpus lines, with its features from the engine. */
export function collectSamples(lines: readonly { readonly line: string; readonly vertical: string }[]): SentimentSample[] {
  const samples: SentimentSample[] = [];
  for (const { line, vertical } of lines) {
    const raw = JSON.parse(line) as { labels?: { sentiment?: Record<string, Sentiment> } };
    const labels = raw.labels?.sentiment;
    if (labels === undefined) continue;
    const { id, input } = parseCorpusLine(line);
    const features = new Map<string, Float64Array>();
    const words = new Map<string, { bag: ReadonlyMap<number, number>; weight: number }>();
    createAnalyzer(input.entities, {
      sentimentModel: null,
      onSentimentFeatures: (entityId, f, bag, weight) => {
        features.set(entityId, Float64Array.from(f));
        words.set(entityId, { bag: new Map(bag), weight });
      },
    }).analyze(input);
    for (const [entityId, expected] of Object.entries(labels)) {
      const w = words.get(entityId);
      samples.push({ id, vertical, entityId, expected, features: features.get(entityId) ?? null, words: w?.bag ?? null, wordWeight: w?.weight ?? 0 });
    }
  }
  return samples;
}

type Usable = SentimentSample & { features: Float64Array; words: ReadonlyMap<number, number> };

/** Fits the model on the samples that have features. */
export function trainModel(samples: readonly SentimentSample[], options: TrainingOptions = TRAINING): SentimentModel {
  const usable = samples.filter((s): s is Usable => s.features !== null && s.words !== null);
  if (usable.length === 0) throw new Error('no samples to train on');
  const F = FEATURE_COUNT;
  const C = SENTIMENT_CLASSES.length;
  const n = usable.length;
  const mean = new Array<number>(F).fill(0);
  const scale = new Array<number>(F).fill(0);
  for (const s of usable) for (let f = 0; f < F; f++) mean[f] += s.features[f] / n;
  for (const s of usable) for (let f = 0; f < F; f++) scale[f] += (s.features[f] - mean[f]) ** 2 / n;
  for (let f = 0; f < F; f++) scale[f] = Math.sqrt(scale[f]) || 1;
  // Sparse rows: dense features at 0..F-1, word buckets at F + bucket.
  const rows = usable.map((s) => {
    const idx: number[] = [];
    const val: number[] = [];
    for (let f = 0; f < F; f++) {
      idx.push(f);
      val.push((s.features[f] - mean[f]) / scale[f]);
    }
    if (!options.withoutWords && s.wordWeight > 0) {
      const norm = WORD_SCALE / Math.sqrt(s.wordWeight);
      for (const [bucket, w] of s.words) {
        idx.push(F + bucket);
        val.push(w * norm);
      }
    }
    return { idx, val };
  });
  const y = usable.map((s) => SENTIMENT_CLASSES.indexOf(s.expected));
  const counts = SENTIMENT_CLASSES.map((_, c) => y.filter((k) => k === c).length);
  const classWeight = counts.map((k) => (options.balanced && k > 0 ? n / (C * k) : 1));
  const totalWeight = y.reduce((sum, c) => sum + classWeight[c], 0);

  const D = F + WORD_BUCKETS;
  const w = Array.from({ length: C }, () => new Float64Array(D));
  const bias = new Float64Array(C);
  const grad = Array.from({ length: C }, () => new Float64Array(D));
  const gradBias = new Float64Array(C);
  const z = new Float64Array(C);
  const rate = 0.5;
  for (let it = 0; it < (options.iterations ?? 300); it++) {
    for (const g of grad) g.fill(0);
    gradBias.fill(0);
    for (let i = 0; i < n; i++) {
      const { idx, val } = rows[i];
      let max = -Infinity;
      for (let c = 0; c < C; c++) {
        let v = bias[c];
        const wc = w[c];
        for (let k = 0; k < idx.length; k++) v += wc[idx[k]] * val[k];
        z[c] = v;
        if (v > max) max = v;
      }
      let sum = 0;
      for (let c = 0; c < C; c++) sum += z[c] = Math.exp(z[c] - max);
      for (let c = 0; c < C; c++) {
        const d = (classWeight[y[i]] * (z[c] / sum - (y[i] === c ? 1 : 0))) / totalWeight;
        gradBias[c] += d;
        const gc = grad[c];
        for (let k = 0; k < idx.length; k++) gc[idx[k]] += d * val[k];
      }
    }
    for (let c = 0; c < C; c++) {
      bias[c] -= rate * gradBias[c];
      const wc = w[c];
      const gc = grad[c];
      for (let k = 0; k < D; k++) wc[k] -= rate * (gc[k] + options.l2 * wc[k]);
    }
  }
  const round = (v: number) => Math.round(v * 1e4) / 1e4 + 0; // + 0: no -0 in the model
  const words: [number, number, number, number][] = [];
  for (let b = 0; b < WORD_BUCKETS; b++) {
    const row = [round(w[0][F + b]), round(w[1][F + b]), round(w[2][F + b])];
    if (row.some((v) => v !== 0)) words.push([b, row[0], row[1], row[2]]);
  }
  const verticals = [...new Set(usable.map((s) => s.vertical))].sort();
  return {
    features: [...SENTIMENT_FEATURES],
    mean: mean.map(round),
    scale: scale.map(round),
    weights: Array.from({ length: C }, (_, c) => [round(bias[c]), ...Array.from(w[c].subarray(0, F), round)]),
    words,
    trainedOn: { answers: new Set(usable.map((s) => s.id)).size, labels: n, verticals, l2: options.l2 },
  };
}

/** The label a model gives a sample (as the analyzer would: the same features, the same words). */
export function predictSample(model: ReturnType<typeof compileModel>, s: SentimentSample): Sentiment | null {
  if (s.features === null || s.words === null) return null;
  const scores = new Float64Array(3);
  for (const [bucket, weight] of s.words) for (let c = 0; c < 3; c++) scores[c] += model.wordTable[bucket * 3 + c] * weight;
  return predictLabel(model, s.features, scores, s.wordWeight);
}

/**
 * Leave-one-vertical-out: each vertical's entities labelled by a model trained on every other vertical only.
 * An entity the engine did not find keeps a null prediction (counted wrong, as in the other figures).
 */
export function leaveOneVerticalOut(samples: readonly SentimentSample[], options: TrainingOptions = TRAINING): { id: string; vertical: string; expected: Sentiment; predicted: Sentiment | null }[] {
  const verticals = [...new Set(samples.map((s) => s.vertical))].sort();
  return verticals.flatMap((vertical) => {
    const model = compileModel(trainModel(samples.filter((s) => s.vertical !== vertical), options));
    return samples.filter((s) => s.vertical === vertical).map((s) => ({ id: s.id, vertical, expected: s.expected, predicted: predictSample(model, s) }));
  });
}
