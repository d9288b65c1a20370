import { Sentence } from '../sentences/split-sentences';
import { ScannedText, TOKEN_SEPARATOR } from '../text/scan-text';
import { EntitySentiment, SentimentLabel } from '../types';
import { attributeSegments, SentenceMention } from './attribute-segments';
import { BOOSTER, DAMPENER, GUARDS, Lexicon, LEXICON, NEGATOR, RECOMMENDS, SURVEY, VERDICT, WARNS } from './lexicon';
import { CompiledSentimentModel, FEATURE_COUNT, predictLabel, wordBucket } from './sentiment-model';

export interface SentimentContext {
  /** Visible text in lower case. */
  readonly lowered: string;
  readonly scanned: ScannedText;
  readonly sentences: readonly Sentence[];
  /** Accepted mentions sorted by start. */
  readonly mentions: readonly SentenceMention[];
  /** For a sentence that names no entity, the entities it is about from its place (the option whose body holds it), or []. */
  readonly topicOf: (sentence: Sentence) => readonly number[];
  readonly entityCount: number;
  /** The entity most of the answer is about, when one clearly is (pronouns in sentences that name no one refer to it), else -1. */
  readonly dominantEntity: number;
  /** The answer's ranking: entity indexes, first option first. */
  readonly order: readonly number[];
  /** The trained model that labels each entity from its features; null: the lexicon thresholds (labelFor). */
  readonly model: CompiledSentimentModel | null;
  /** Receives each scored entity's features (training and evaluation tools). */
  /** Receives each scored entity's features: the dense ones, its clause words (bucket → weight) and their total weight. */
  readonly onFeatures?: (entityIndex: number, features: Float64Array, words: ReadonlyMap<number, number>, wordWeight: number) => void;
}

// Imports read once into module constants: in the CommonJS build every use of an imported binding is a getter call.
const SEPARATOR: number = TOKEN_SEPARATOR;
const LEX: Lexicon = LEXICON;
const VALENCE: readonly number[] = LEXICON.valence;
const FLAGS: readonly number[] = LEXICON.flags;
const NEGATES: number = NEGATOR;
const BOOSTS: number = BOOSTER;
const DAMPENS: number = DAMPENER;
const GUARDING: number = GUARDS;
const PHRASE_VALENCE: ReadonlyMap<number, number> = LEXICON.phrases;
const F_RECOMMENDS: number = RECOMMENDS;
const F_WARNS: number = WARNS;
const F_VERDICT: number = VERDICT;
const F_SURVEY: number = SURVEY;

/** Per-entity evidence accumulators, one slot an entity (reused from one answer to the next). */
const A_DIRECT_POS = 0;
const A_DIRECT_NEG = 1;
const A_INH_POS = 2;
const A_INH_NEG = 3;
const A_VERDICT = 4;
const A_CLOSING = 5;
const A_REC = 6;
const A_WARN = 7;
const A_COND = 8;
const A_MAX = 9;
const A_MIN = 10;
const A_NAMED = 11;
const A_COMPARED = 12;
const A_BODY = 13;
const A_FIRST = 14;
const A_CROWD = 15;
const A_SURVEY = 16;
const A_MENTIONS = 17;
const A_SIZE = 18;

/** How much a sentence that names no entity, but sits in an entity's list item or follows it in a paragraph, counts. */
const INHERITED_WEIGHT = 0.8;
/** How much a sentence that names no one counts for the answer's dominant entity. */
const DOMINANT_WEIGHT = 0.5;
/** VADER's normalisation constant: score = x / sqrt(x² + alpha). */
const ALPHA = 15;
/** The tunable constants of the labelling (chosen by cross-validation on the dev corpus; see README). */
export interface SentimentParams {
  /** Score (net evidence, normalised) at or above which an entity is positive. */
  positiveThreshold: number;
  /** Score at or below which an entity is negative. */
  negativeThreshold: number;
  /** Praise and criticism in balance: when the smaller side is at least this share of the larger, the label is neutral. */
  balance: number;
  /** Weight of criticism in a concession or after "but" relative to praise there (mixed clauses read as balanced). */
  mixedCriticism: number;
}

export const SENTIMENT_PARAMS: SentimentParams = { positiveThreshold: 0.2, negativeThreshold: -0.35, balance: 0.5, mixedCriticism: 2 };

export function labelFor(score: number, positive = 1, negative = 0, params: SentimentParams = SENTIMENT_PARAMS): SentimentLabel {
  const small = Math.min(positive, negative);
  const large = Math.max(positive, negative);
  if (large > 0 && small >= params.balance * large) return 'neutral';
  if (score >= params.positiveThreshold) return 'positive';
  if (score <= params.negativeThreshold) return 'negative';
  return 'neutral';
}

/** Reusable per-token buffers of a sentence (grown when a longer sentence comes). */
class Scratch {
  ids = new Int32Array(256);
  valences = new Float64Array(256);
  inMention = new Uint8Array(256);
  ensure(n: number): void {
    if (n <= this.ids.length) return;
    const size = Math.max(n, this.ids.length * 2);
    this.ids = new Int32Array(size);
    this.valences = new Float64Array(size);
    this.inMention = new Uint8Array(size);
  }
}
const scratch = new Scratch();

function endsWithNt(lowered: string, end: number): boolean {
  const q = lowered.charCodeAt(end - 2);
  return end >= 3 && lowered.charCodeAt(end - 1) === 116 && (q === 39 || q === 0x2019) && lowered.charCodeAt(end - 3) === 110;
}

/** Lexicon entry of token k (the whole word, else its part after the last hyphen), or -1. */
function entryOf(lowered: string, s: ScannedText, k: number): number {
  const start = s.tokStart[k];
  const end = s.tokEnd[k];
  const id = LEX.find(lowered, start, end, s.tokHash[k]);
  if (id >= 0 || s.tokPartHash[k] === 0) return id;
  const dash = lowered.lastIndexOf('-', end - 1);
  return dash >= start ? LEX.find(lowered, dash + 1, end, s.tokPartHash[k]) : -1;
}

/**
 * Valences of tokens [t0, t1) into `out` (relative index), VADER-style: a negator among the three words before flips
 * and damps (x -0.74), a booster just before strengthens (x 1.3), a dampener weakens (x 0.7). Tokens in mentions are 0.
 */
function tokenValences(lowered: string, s: ScannedText, t0: number, t1: number, ids: Int32Array, inMention: Uint8Array, out: Float64Array): void {
  let guarded = false;
  for (let k = t0; k < t1; k++) {
    const r = k - t0;
    out[r] = 0;
    if (s.tokKind[k] === SEPARATOR) {
      guarded = false;
      continue;
    }
    if (inMention[r] === 1) continue;
    const id = ids[r];
    if (id < 0) continue;
    if ((FLAGS[id] & GUARDING) !== 0) guarded = true;
    let v = VALENCE[id];
    // A phrase ("my pick", "falls short") replaces its words' valences.
    if (r > 0 && ids[r - 1] >= 0 && s.tokKind[k - 1] !== SEPARATOR) {
      const phrase = PHRASE_VALENCE.get(ids[r - 1] * 65536 + id);
      if (phrase !== undefined) {
        out[r - 1] = 0;
        v = phrase;
      }
    }
    if (v === 0) continue;
    // Threat words after "flags", "protects against", "alerts you to" describe what a feature handles, not a flaw.
    if (v < 0 && guarded) continue;
    for (let back = 1; back <= 3 && k - back >= t0; back++) {
      const p = k - back;
      if (s.tokKind[p] === SEPARATOR) break;
      const pid = ids[p - t0];
      if ((pid >= 0 && (FLAGS[pid] & NEGATES) !== 0) || endsWithNt(lowered, s.tokEnd[p])) {
        v *= -0.74;
        break;
      }
    }
    if (k > t0 && s.tokKind[k - 1] !== SEPARATOR) {
      const pid = ids[r - 1];
      const pf = pid >= 0 ? FLAGS[pid] : 0;
      if ((pf & BOOSTS) !== 0) v *= 1.3;
      else if ((pf & DAMPENS) !== 0) v *= 0.7;
    }
    out[r] = v;
  }
}

/**
 * Sentiment of each entity from the clauses about it: sentences are split into segments, each attributed to the
 * entities it names as subjects (or inherits), scored with the lexicon (negation, boosters, contrast weights), summed
 * per entity and normalised into [-1, 1]. Null for entities that no sentence is about. Only the sentences attributed
 * to some entity are scored; a word is looked up by the hash the text scan computed (no slicing).
 */
export function scoreEntitySentiment(ctx: SentimentContext): (EntitySentiment | null)[] {
  const totals = new Array<number>(ctx.entityCount).fill(0);
  const positive = new Array<number>(ctx.entityCount).fill(0);
  const negative = new Array<number>(ctx.entityCount).fill(0);
  const params = SENTIMENT_PARAMS;
  const touched = new Array<boolean>(ctx.entityCount).fill(false);
  const acc = new Float64Array(ctx.entityCount * A_SIZE);
  for (let e = 0; e < ctx.entityCount; e++) acc[e * A_SIZE + A_FIRST] = -1;
  for (const mention of ctx.mentions) acc[mention.entityIndex * A_SIZE + A_MENTIONS]++;
  const words: Map<number, number>[] | null = ctx.onFeatures !== undefined ? Array.from({ length: ctx.entityCount }, () => new Map<number, number>()) : null;
  const model = ctx.model;
  const table = model !== null ? model.wordTable : null;
  /** Per entity: the clause words' table rows summed (one a class) and the clause weight they carry. */
  const wordScores = table !== null ? new Float64Array(ctx.entityCount * 3) : null;
  const wordWeight = new Float64Array(ctx.entityCount);
  /** Per entity: the last sentence that named it, and the last one with a clause about it (stamps, no clearing). */
  const seenIn = new Int32Array(ctx.entityCount).fill(-1);
  const subjectIn = new Int32Array(ctx.entityCount).fill(-1);
  const named = new Int32Array(ctx.entityCount);
  const lastBlock = ctx.sentences.length > 0 ? ctx.sentences[ctx.sentences.length - 1].blockIndex : -1;
  const s = ctx.scanned;
  const lowered = ctx.lowered;
  let m = 0;
  let previousSubjects: readonly number[] = [];
  let previousBlock = -1;
  let t = 0;
  for (const sentence of ctx.sentences) {
    while (m < ctx.mentions.length && ctx.mentions[m].start < sentence.start) m++;
    let mEnd = m;
    while (mEnd < ctx.mentions.length && ctx.mentions[mEnd].start < sentence.end) mEnd++;
    if (sentence.blockIndex !== previousBlock) previousSubjects = [];
    previousBlock = sentence.blockIndex;
    let fallback: readonly number[] = [];
    let weight = 1;
    if (mEnd === m) {
      const topic = ctx.topicOf(sentence);
      fallback = topic.length > 0 ? topic : previousSubjects;
      weight = INHERITED_WEIGHT;
      if (fallback.length === 0 && ctx.dominantEntity >= 0) {
        fallback = [ctx.dominantEntity];
        weight = DOMINANT_WEIGHT;
      }
      if (fallback.length === 0) continue;
    }
    while (t < s.tokenCount && s.tokStart[t] < sentence.start) t++;
    const t0 = t;
    let t1 = t0;
    while (t1 < s.tokenCount && s.tokStart[t1] < sentence.end) t1++;
    if (t1 === t0) continue;
    const inSentence = ctx.mentions.slice(m, mEnd);
    scratch.ensure(t1 - t0);
    const { ids, valences, inMention } = scratch;
    // Lexicon entries of the sentence's tokens, and which tokens lie inside a mention (the scan's arrays read into
    // locals: entryOf is a call, after which property loads of `s` could not be assumed unchanged).
    const kinds = s.tokKind;
    const starts = s.tokStart;
    const ends = s.tokEnd;
    let q = 0;
    let nextMentionEnd = inSentence.length > 0 ? inSentence[0].end : -1;
    for (let k = t0; k < t1; k++) {
      const r = k - t0;
      ids[r] = kinds[k] === SEPARATOR ? -1 : entryOf(lowered, s, k);
      if (nextMentionEnd < 0) {
        inMention[r] = 0;
        continue;
      }
      const ts = starts[k];
      while (q < inSentence.length && inSentence[q].end <= ts) q++;
      if (q === inSentence.length) nextMentionEnd = -1;
      inMention[r] = q < inSentence.length && ts >= inSentence[q].start && ends[k] <= inSentence[q].end ? 1 : 0;
    }
    tokenValences(lowered, s, t0, t1, ids, inMention, valences);
    const segments = attributeSegments(s, t0, t1, ids, inMention, inSentence, fallback);
    let sentenceFlags = 0;
    for (let r = 0; r < t1 - t0; r++) if (ids[r] >= 0) sentenceFlags |= FLAGS[ids[r]];
    const isVerdict = (sentenceFlags & F_VERDICT) !== 0;
    const isClosing = sentence.blockIndex === lastBlock;
    const direct = mEnd > m;
    for (const seg of segments) {
      let v = 0;
      let rec = 0;
      let warn = 0;
      for (let k = seg.from; k < seg.to; k++) {
        const val = valences[k - t0];
        v += val;
        const id = ids[k - t0];
        if (id < 0 || val === 0) continue;
        const f = FLAGS[id];
        if ((f & F_RECOMMENDS) !== 0) {
          if (val > 0) rec++;
          else warn++;
        } else if ((f & F_WARNS) !== 0 && val < 0) warn++;
      }
      // Criticism inside a concession or a contrast is not discounted as much as praise there: "fast, though the free
      // version shows ads" reads as mixed, not as praise.
      const w = v < 0 && seg.weight < 1 ? Math.min(1, seg.weight * params.mixedCriticism) : seg.weight;
      const contribution = v * w * weight;
      if (table !== null || words !== null) {
        // The clause's words, for the model: each counts with the clause's weight.
        const tw = seg.weight * weight;
        let s0 = 0;
        let s1 = 0;
        let s2 = 0;
        let count = 0;
        for (let k = seg.from; k < seg.to; k++) {
          if (kinds[k] === SEPARATOR || inMention[k - t0] === 1) continue;
          count++;
          const b = wordBucket(s.tokHash[k]);
          if (table !== null) {
            s0 += table[b * 3];
            s1 += table[b * 3 + 1];
            s2 += table[b * 3 + 2];
          }
          if (words !== null) for (const e of seg.entities) words[e].set(b, (words[e].get(b) ?? 0) + tw);
        }
        for (const e of seg.entities) {
          wordWeight[e] += count * tw;
          if (wordScores !== null) {
            wordScores[e * 3] += s0 * tw;
            wordScores[e * 3 + 1] += s1 * tw;
            wordScores[e * 3 + 2] += s2 * tw;
          }
        }
      }
      for (const e of seg.entities) {
        touched[e] = true;
        totals[e] += contribution;
        if (contribution > 0) positive[e] += contribution;
        else negative[e] -= contribution;
        const a = e * A_SIZE;
        if (direct) acc[a + (contribution > 0 ? A_DIRECT_POS : A_DIRECT_NEG)] += Math.abs(contribution);
        else acc[a + (contribution > 0 ? A_INH_POS : A_INH_NEG)] += Math.abs(contribution);
        if (isVerdict) acc[a + A_VERDICT] += contribution;
        if (isClosing) acc[a + A_CLOSING] += contribution;
        if (seg.introducer === 'condition') acc[a + A_COND] += v * weight;
        acc[a + A_REC] += rec * weight;
        acc[a + A_WARN] += warn * weight;
        if (contribution > acc[a + A_MAX]) acc[a + A_MAX] = contribution;
        if (contribution < acc[a + A_MIN]) acc[a + A_MIN] = contribution;
      }
    }
    if (!direct) {
      for (const e of fallback) acc[e * A_SIZE + A_BODY] += weight;
    } else {
      // Entities named in this sentence (each once): how crowded it is, whether it surveys options, who is only compared.
      let distinct = 0;
      for (const mention of inSentence) {
        if (seenIn[mention.entityIndex] === sentence.index) continue;
        seenIn[mention.entityIndex] = sentence.index;
        named[distinct++] = mention.entityIndex;
      }
      for (const seg of segments) for (const e of seg.entities) subjectIn[e] = sentence.index;
      const survey = distinct >= 2 && (sentenceFlags & F_SURVEY) !== 0;
      for (let q = 0; q < distinct; q++) {
        const e = named[q];
        const a = e * A_SIZE;
        acc[a + A_NAMED]++;
        acc[a + A_CROWD] += distinct;
        if (survey) acc[a + A_SURVEY]++;
        if (acc[a + A_FIRST] < 0) acc[a + A_FIRST] = sentence.index;
        if (subjectIn[e] !== sentence.index) acc[a + A_COMPARED]++;
      }
    }
    for (const e of inSentence) touched[e.entityIndex] = true;
    const last = segments.length > 0 ? segments[segments.length - 1].entities : [];
    if (inSentence.length > 0 && last.length > 0) previousSubjects = last;
  }
  const features = model !== null || ctx.onFeatures !== undefined ? new Float64Array(FEATURE_COUNT) : null;
  const sentenceCount = Math.max(1, ctx.sentences.length);
  return totals.map((total, e) => {
    if (!touched[e]) return null;
    const score = total / Math.sqrt(total * total + ALPHA);
    let label: SentimentLabel;
    if (features === null) {
      label = labelFor(score, positive[e], negative[e], params);
    } else {
      entityFeatures(acc, e, ctx, score, positive[e], negative[e], sentenceCount, features);
      if (ctx.onFeatures !== undefined) ctx.onFeatures(e, features, words![e], wordWeight[e]);
      label = model !== null ? predictLabel(model, features, wordScores!.subarray(e * 3, e * 3 + 3), wordWeight[e]) : labelFor(score, positive[e], negative[e], params);
    }
    return { score: Math.round(score * 1000) / 1000, label };
  });
}

/** The feature vector of entity e (SENTIMENT_FEATURES order) into `out`. */
function entityFeatures(acc: Float64Array, e: number, ctx: SentimentContext, score: number, praise: number, criticism: number, sentenceCount: number, out: Float64Array): void {
  const a = e * A_SIZE;
  const named = acc[a + A_NAMED];
  const rank = ctx.order.indexOf(e);
  const large = Math.max(praise, criticism);
  let f = 0;
  out[f++] = score;
  out[f++] = Math.log1p(praise);
  out[f++] = Math.log1p(criticism);
  out[f++] = large > 0 ? Math.min(praise, criticism) / large : 0;
  out[f++] = Math.log1p(acc[a + A_DIRECT_POS]);
  out[f++] = Math.log1p(acc[a + A_DIRECT_NEG]);
  out[f++] = Math.log1p(acc[a + A_INH_POS]);
  out[f++] = Math.log1p(acc[a + A_INH_NEG]);
  out[f++] = Math.tanh(acc[a + A_VERDICT] / 2);
  out[f++] = Math.tanh(acc[a + A_CLOSING] / 2);
  out[f++] = Math.log1p(acc[a + A_REC]);
  out[f++] = Math.log1p(acc[a + A_WARN]);
  out[f++] = Math.tanh(acc[a + A_COND] / 2);
  out[f++] = Math.tanh(acc[a + A_MAX] / 3);
  out[f++] = Math.tanh(acc[a + A_MIN] / 3);
  out[f++] = named > 0 ? acc[a + A_COMPARED] / named : 0;
  out[f++] = rank === 0 ? 1 : 0;
  out[f++] = rank >= 0 ? 1 / (rank + 1) : 0;
  out[f++] = Math.log1p(acc[a + A_MENTIONS]);
  out[f++] = large === 0 ? 1 : 0;
  out[f++] = Math.log1p(acc[a + A_BODY]);
  out[f++] = ctx.dominantEntity === e ? 1 : 0;
  out[f++] = acc[a + A_FIRST] >= 0 ? acc[a + A_FIRST] / sentenceCount : 1;
  out[f++] = named > 0 ? Math.log(acc[a + A_CROWD] / named) : 0;
  out[f] = named > 0 ? acc[a + A_SURVEY] / named : 0;
}
