import { RenderedAnswer } from '../markdown/rendered-answer';
import { ScannedText } from '../text/scan-text';
import { isWordCharCode } from '../text/word-chars';

/** A sentence of the visible text (a table row counts as one). Offsets in the visible text, end exclusive. */
export interface Sentence {
  readonly index: number;
  readonly start: number;
  readonly end: number;
  readonly blockIndex: number;
  readonly wordCount: number;
}

const ABBREVIATIONS = new Set(['e.g', 'eg', 'i.e', 'ie', 'vs', 'etc', 'approx', 'mr', 'mrs', 'ms', 'dr', 'st', 'inc', 'ltd', 'co', 'jr', 'sr', 'no', 'fig', 'u.s', 'u.k', 'est', 'incl', 'avg', 'min', 'max', 'mo', 'yr']);

function isCloser(c: number): boolean {
  // ) " ' ” ’ * ]
  return c === 41 || c === 34 || c === 39 || c === 0x201d || c === 0x2019 || c === 42 || c === 93;
}

export function countWords(text: string, start: number, end: number): number {
  let words = 0;
  let inWord = false;
  for (let i = start; i < end; i++) {
    const w = isWordCharCode(text.charCodeAt(i));
    if (w && !inWord) words++;
    inWord = w;
  }
  return words;
}

function isAbbreviationBefore(text: string, dot: number, blockStart: number): boolean {
  let s = dot;
  while (s > blockStart && (isWordCharCode(text.charCodeAt(s - 1)) || text.charCodeAt(s - 1) === 46)) s--;
  if (dot - s > 6) return false; // longer than any abbreviation
  const before = s > blockStart ? text.charCodeAt(s - 1) : 32;
  if (dot - s === 1) {
    const c = text.charCodeAt(s) | 32;
    if (c >= 97 && c <= 122 && (before === 32 || before === 40)) return true; // an initial
  }
  return ABBREVIATIONS.has(text.slice(s, dot).toLowerCase());
}

/** At a terminator: the index just after it and any closers when it ends a sentence, else -1. */
function sentenceEndAt(text: string, i: number, blockStart: number, blockEnd: number): number {
  const ch = text.charCodeAt(i);
  let j = i + 1;
  while (j < blockEnd && (text.charCodeAt(j) === 46 || text.charCodeAt(j) === 33 || text.charCodeAt(j) === 63)) j++;
  while (j < blockEnd && isCloser(text.charCodeAt(j))) j++;
  if (j >= blockEnd) return j;
  const cj = text.charCodeAt(j);
  if (cj !== 32 && cj !== 9) return -1;
  let k = j;
  while (k < blockEnd && (text.charCodeAt(k) === 32 || text.charCodeAt(k) === 9)) k++;
  if (k >= blockEnd) return j;
  const next = text.charCodeAt(k);
  // A lower-case letter follows: not a new sentence.
  if (next >= 97 && next <= 122) return -1;
  if (next >= 128 && text.charAt(k) !== text.charAt(k).toUpperCase()) return -1;
  if (ch === 46 && isAbbreviationBefore(text, i, blockStart)) return -1;
  return j;
}

/**
 * Splits the visible text into sentences: at line (block) boundaries, and at ., ! or ? followed by a space and a
 * capital. Reads only the terminators the text scan recorded, and counts words from its token table.
 */
export function splitSentences(rendered: RenderedAnswer, scanned: ScannedText): Sentence[] {
  const { text, blocks } = rendered;
  const sentences: Sentence[] = [];
  const terms = scanned.terminators;
  const termCount = scanned.terminatorCount;
  let t = 0;
  for (let bi = 0; bi < blocks.length; bi++) {
    const b = blocks[bi];
    if (b.end <= b.start || b.kind === 'blank' || b.kind === 'tableDelimiter') continue;
    const whole = b.kind === 'tableRow' || b.kind === 'tableHeader' || b.kind === 'heading' || b.kind === 'boldLine';
    while (t < termCount && terms[t] < b.start) t++;
    let s = b.start;
    for (;;) {
      let e = -1;
      if (!whole) {
        for (; t < termCount && terms[t] < b.end; t++) {
          if (terms[t] < s) continue;
          e = sentenceEndAt(text, terms[t], b.start, b.end);
          if (e > 0) {
            t++;
            break;
          }
        }
      }
      const end = e > 0 ? e : b.end;
      let from = s;
      let to = end;
      while (from < to && (text.charCodeAt(from) === 32 || text.charCodeAt(from) === 9)) from++;
      while (to > from && (text.charCodeAt(to - 1) === 32 || text.charCodeAt(to - 1) === 9)) to--;
      const wordCount = from < to ? scanned.wordsBetween(from, to) : 0;
      if (wordCount > 0) sentences.push({ index: sentences.length, start: from, end: to, blockIndex: bi, wordCount });
      if (e <= 0) break;
      s = e;
    }
  }
  return sentences;
}
