import { ScannedText, TOKEN_SEPARATOR } from '../text/scan-text';
import { COMPARED, COMPARISON, CONCESSION, CONDITION, CONTRAST, FILLER, LEXICON, TO_OR_WITH } from './lexicon';

/** A clause-like part of a sentence and the entities it is about. */
export interface Segment {
  /** Token range [from, to) (indexes into the scan's tokens). */
  readonly from: number;
  readonly to: number;
  readonly introducer: 'contrast' | 'concession' | 'condition' | null;
  entities: number[];
  weight: number;
}

export interface SentenceMention {
  readonly entityIndex: number;
  readonly start: number;
  readonly end: number;
}

// Imports read once into module constants (in the CommonJS build an imported binding is a getter call per use).
const SEP: number = TOKEN_SEPARATOR;
const FLAGS: readonly number[] = LEXICON.flags;
const F_CONTRAST: number = CONTRAST;
const F_CONCESSION: number = CONCESSION;
const F_CONDITION: number = CONDITION;
const F_COMPARISON: number = COMPARISON;
const F_FILLER: number = FILLER;
const F_TO_OR_WITH: number = TO_OR_WITH;
const F_COMPARED: number = COMPARED;

/** A clause about the reader's situation ("if you need ...", "when ..."), not about the entity. */
const CONDITION_WEIGHT = 0.2;

function flagsOf(ids: Int32Array, k: number): number {
  const id = ids[k];
  return id >= 0 ? FLAGS[id] : 0;
}

/**
 * Splits a sentence's tokens [t0, t1) into segments at separators (, ; : – —) and contrast words, assigns each segment
 * the entities named in it as subjects (not those after "than"/"vs"), lets segments that name none inherit from the
 * segment before (or the first later one), and weights them VADER-style: after "but"/"however" x1.5 and before it
 * x0.5; a concession ("although ...") x0.5; a condition ("if you need ...") x0.2.
 * `ids` holds each token's lexicon entry (or -1) and `inMention` marks tokens inside a mention, both indexed from t0.
 */
export function attributeSegments(scanned: ScannedText, t0: number, t1: number, ids: Int32Array, inMention: Uint8Array, mentions: readonly SentenceMention[], fallback: readonly number[]): Segment[] {
  const segments: Segment[] = [];
  const kind = scanned.tokKind;
  const hash = scanned.tokHash;
  let from = t0;
  let introducer: Segment['introducer'] = null;
  for (let k = t0; k < t1; k++) {
    if (kind[k] === SEP) {
      if (hash[k] === 40 || hash[k] === 41) continue;
      if (k > from) segments.push({ from, to: k, introducer, entities: [], weight: 1 });
      from = k + 1;
      introducer = null;
      continue;
    }
    const f = flagsOf(ids, k - t0);
    if ((f & (F_CONTRAST | F_CONCESSION | F_CONDITION)) !== 0) {
      if (k > from) segments.push({ from, to: k, introducer, entities: [], weight: 1 });
      from = k;
      introducer = (f & F_CONTRAST) !== 0 ? 'contrast' : (f & F_CONCESSION) !== 0 ? 'concession' : 'condition';
    }
  }
  if (t1 > from) segments.push({ from, to: t1, introducer, entities: [], weight: 1 });

  // Entities named in each segment, as subjects.
  const starts = scanned.tokStart;
  const ends = scanned.tokEnd;
  let m = 0;
  for (const seg of segments) {
    const segStart = starts[seg.from];
    const segEnd = ends[seg.to - 1];
    while (m < mentions.length && mentions[m].start < segStart) m++;
    let first = seg.from;
    for (let q = m; q < mentions.length && mentions[q].start < segEnd; q++) {
      const mention = mentions[q];
      while (first < seg.to && ends[first] <= mention.start) first++;
      const before = first - 1 >= seg.from && kind[first - 1] !== SEP ? flagsOf(ids, first - 1 - t0) : 0;
      const before2 = first - 2 >= seg.from && kind[first - 2] !== SEP ? flagsOf(ids, first - 2 - t0) : 0;
      const compared = (before & F_COMPARISON) !== 0 || ((before & F_TO_OR_WITH) !== 0 && (before2 & F_COMPARED) !== 0);
      if (!compared && !seg.entities.includes(mention.entityIndex)) seg.entities.push(mention.entityIndex);
      if (seg.entities.length >= 16) break;
    }
  }
  // Segments that only hold names ("HubSpot, Pipedrive and Zoho are ...") join the next one.
  for (let k = 0; k < segments.length - 1; k++) {
    const seg = segments[k];
    if (seg.entities.length === 0) continue;
    let content = 0;
    for (let q = seg.from; q < seg.to; q++) {
      if (kind[q] === SEP || inMention[q - t0] === 1 || (flagsOf(ids, q - t0) & F_FILLER) !== 0) continue;
      content++;
    }
    if (content === 0) {
      const next = segments[k + 1];
      for (const e of seg.entities) if (!next.entities.includes(e)) next.entities.push(e);
    }
  }
  // Inheritance: from the segment before, else the first later segment that names someone, else the fallback topic.
  let previous: number[] = [];
  for (const seg of segments) {
    if (seg.entities.length > 0) previous = seg.entities;
    else if (previous.length > 0) seg.entities = previous.slice();
  }
  let firstNamed: Segment | undefined;
  for (const seg of segments) {
    if (seg.entities.length > 0) {
      firstNamed = seg;
      break;
    }
  }
  for (const seg of segments) {
    if (seg.entities.length === 0) seg.entities = firstNamed !== undefined ? firstNamed.entities.slice() : fallback.slice();
  }
  // Contrast weights.
  for (let k = 0; k < segments.length; k++) {
    const seg = segments[k];
    if (seg.introducer === 'contrast') {
      for (let q = 0; q < k; q++) segments[q].weight *= 0.5;
      for (let q = k; q < segments.length; q++) segments[q].weight *= 1.5;
    } else if (seg.introducer === 'concession') {
      seg.weight *= 0.5;
    } else if (seg.introducer === 'condition') {
      seg.weight *= CONDITION_WEIGHT;
    }
  }
  return segments;
}
