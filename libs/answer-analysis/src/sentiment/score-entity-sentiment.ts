import { Sentence } from '../sentences/split-sentences';
import { ScannedText, TOKEN_SEPARATOR } from '../text/scan-text';
import { EntitySentiment, SentimentLabel } from '../types';
import { attributeSegments, SentenceMention } from './attribute-segments';
import { BOOSTER, DAMPENER, GUARDS, Lexicon, LEXICON, NEGATOR } from './lexicon';

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
    for (const seg of segments) {
      let v = 0;
      for (let k = seg.from; k < seg.to; k++) v += valences[k - t0];
      // Criticism inside a concession or a contrast is not discounted as much as praise there: "fast, though the free
      // version shows ads" reads as mixed, not as praise.
      const w = v < 0 && seg.weight < 1 ? Math.min(1, seg.weight * params.mixedCriticism) : seg.weight;
      const contribution = v * w * weight;
      for (const e of seg.entities) {
        touched[e] = true;
        totals[e] += contribution;
        if (contribution > 0) positive[e] += contribution;
        else negative[e] -= contribution;
      }
    }
    for (const e of inSentence) touched[e.entityIndex] = true;
    const last = segments.length > 0 ? segments[segments.length - 1].entities : [];
    if (inSentence.length > 0 && last.length > 0) previousSubjects = last;
  }
  return totals.map((total, e) => {
    if (!touched[e]) return null;
    const score = total / Math.sqrt(total * total + ALPHA);
    return { score: Math.round(score * 1000) / 1000, label: labelFor(score, positive[e], negative[e], params) };
  });
}
