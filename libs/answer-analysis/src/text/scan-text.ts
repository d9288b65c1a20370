import { charClassTable, isWordCharAt } from './word-chars';

const CLASS = charClassTable();

/**
 * The one linear pass over the lower-cased visible text that every later stage shares. It produces, in typed arrays:
 * - tokens: words (runs of word characters, joined across a single ' - or ’ between letters: "class-leading",
 *   "isn't") with an FNV-1a hash of the word (’ read as ') and of its part after the last hyphen, the number of plain
 *   word runs in it (for word counts), and separator punctuation (, ; : – — ( ) and a spaced hyphen);
 * - terminators: the offsets of . ! ? … (candidate sentence ends);
 * - name candidates: where a tracked name starts (the matcher is asked only at word-boundary positions whose
 *   character starts some name, a table read per character).
 */
export const TOKEN_WORD = 0;
export const TOKEN_SEPARATOR = 1;

export interface NameProbe {
  /** Per code unit, 1 when some tracked name starts with it. */
  readonly startsName: Uint8Array;
  /** Per pair of first characters (low bytes: (first & 255) << 8 | second & 255), 1 when some name may start so. */
  readonly startsPair: Uint8Array;
  /** The longest name matching at `pos` (a word boundary) that ends at a word boundary: its index, end in `matchEnd`; or -1. */
  matchAt(lowered: string, pos: number): number;
  matchEnd: number;
}

export class ScannedText {
  // The per-token arrays are assigned by allocate(), from the constructor and when reset() grows them.
  tokenCount = 0;
  tokStart!: Int32Array;
  tokEnd!: Int32Array;
  tokHash!: Int32Array;
  /** Hash of the part after the last hyphen, 0 when the word has no hyphen. */
  tokPartHash!: Int32Array;
  /** Token kind (TOKEN_WORD, TOKEN_SEPARATOR). */
  tokKind!: Uint8Array;
  /** Cumulative count of plain word runs before each token (length tokenCount + 1). */
  runsBefore!: Int32Array;
  terminatorCount = 0;
  terminators!: Int32Array;
  candidateCount = 0;
  candStart: Int32Array;
  candEnd: Int32Array;
  candName: Int32Array;
  capacity: number;
  /** The text's UTF-16 code units (a typed-array read is cheaper than charCodeAt in the hot loop). */
  codes: Uint16Array = new Uint16Array(0);
  private codeBuffer: Buffer = Buffer.alloc(0);

  constructor(capacity: number) {
    this.capacity = Math.max(16, capacity);
    this.allocate(this.capacity);
    this.candStart = new Int32Array(16);
    this.candEnd = new Int32Array(16);
    this.candName = new Int32Array(16);
  }

  /** The per-token arrays, sized for `n` tokens. */
  private allocate(n: number): void {
    this.tokStart = new Int32Array(n);
    this.tokEnd = new Int32Array(n);
    this.tokHash = new Int32Array(n);
    this.tokPartHash = new Int32Array(n);
    this.tokKind = new Uint8Array(n);
    this.runsBefore = new Int32Array(n + 1);
    this.terminators = new Int32Array(n);
  }

  /** Ready for a text needing `capacity` entries: the arrays are reused (a scratch buffer of a compiled analyzer), grown when too small. */
  reset(capacity: number): void {
    if (capacity > this.capacity) {
      this.capacity = Math.max(capacity, this.capacity * 2);
      this.allocate(this.capacity);
    }
    this.tokenCount = 0;
    this.terminatorCount = 0;
    this.candidateCount = 0;
  }

  /** Copies the text's code units into `codes` (native copy), growing the buffer when needed. */
  loadCodes(text: string): Uint16Array {
    const bytes = 2 * text.length + 2;
    if (this.codeBuffer.length < bytes) {
      this.codeBuffer = Buffer.allocUnsafeSlow(Math.max(bytes, 2 * this.codeBuffer.length, 8192));
      this.codes = new Uint16Array(this.codeBuffer.buffer, this.codeBuffer.byteOffset, this.codeBuffer.length >> 1);
    }
    this.codeBuffer.write(text, 0, 'utf16le');
    this.codes[text.length] = 0;
    return this.codes;
  }

  addCandidate(start: number, end: number, name: number): void {
    if (this.candidateCount === this.candStart.length) {
      const grow = (a: Int32Array): Int32Array => {
        const b = new Int32Array(a.length * 2);
        b.set(a);
        return b;
      };
      this.candStart = grow(this.candStart);
      this.candEnd = grow(this.candEnd);
      this.candName = grow(this.candName);
    }
    this.candStart[this.candidateCount] = start;
    this.candEnd[this.candidateCount] = end;
    this.candName[this.candidateCount] = name;
    this.candidateCount++;
  }

  /** Index of the first token starting at or after `pos`. */
  tokenFrom(pos: number): number {
    let lo = 0;
    let hi = this.tokenCount;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.tokStart[mid] < pos) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Plain word runs (what a word count counts) between two offsets that fall between tokens. */
  wordsBetween(start: number, end: number): number {
    return this.runsBefore[this.tokenFrom(end)] - this.runsBefore[this.tokenFrom(start)];
  }
}

const FNV_OFFSET = -2128831035; // 2166136261 as int32
const FNV_PRIME = 16777619;

/** FNV-1a of a lower-case word, ’ read as ' (the hash the scan computes). */
export function hashWord(word: string): number {
  let h = FNV_OFFSET;
  for (let i = 0; i < word.length; i++) {
    let c = word.charCodeAt(i);
    if (c === 0x2019) c = 39;
    h = Math.imul(h ^ c, FNV_PRIME);
  }
  return h;
}

function isSeparator(c: number, lowered: string, i: number): boolean {
  if (c === 44 || c === 59 || c === 58 || c === 0x2013 || c === 0x2014 || c === 40 || c === 41) return true;
  return c === 45 && lowered.charCodeAt(i - 1) === 32 && lowered.charCodeAt(i + 1) === 32;
}

/** Scans the lower-cased visible text once (see ScannedText). Linear: each character is read a bounded number of times, and the matcher only at candidate starts. */
export function scanText(lowered: string, probe: NameProbe | null, scratch?: ScannedText): ScannedText {
  const len = lowered.length;
  const out = scratch ?? new ScannedText(len + 8);
  out.reset(len + 8);
  const codes = out.loadCodes(lowered);
  const { tokStart, tokEnd, tokHash, tokPartHash, tokKind, runsBefore, terminators } = out;
  const startsName = probe !== null ? probe.startsName : null;
  const startsPair = probe !== null ? probe.startsPair : new Uint8Array(0);
  let tokens = 0;
  let terms = 0;
  let runs = 0;
  let mentionUntil = 0;
  let prevWord = false;
  let i = 0;
  while (i < len) {
    const c = codes[i];
    if (startsName !== null && !prevWord && i >= mentionUntil && startsName[c] === 1 && startsPair[((c & 0xff) << 8) | (codes[i + 1] & 0xff)] === 1) {
      const lowSurrogateBefore = i > 1 && (codes[i - 1] & 0xfc00) === 0xdc00;
      if (!lowSurrogateBefore || !isWordCharAt(lowered, i - 2)) {
        const name = (probe as NameProbe).matchAt(lowered, i);
        if (name >= 0) {
          out.addCandidate(i, (probe as NameProbe).matchEnd, name);
          mentionUntil = (probe as NameProbe).matchEnd;
        }
      }
    }
    if ((CLASS[c] & 1) !== 0) {
      // A word: runs of word characters joined by one connector between word characters.
      const start = i;
      let h = FNV_OFFSET;
      let part = 0;
      let pieces = 1;
      let p = i;
      for (;;) {
        let d = codes[p];
        if ((CLASS[d] & 1) !== 0) {
          h = Math.imul(h ^ d, FNV_PRIME);
          if (part !== 0) part = Math.imul(part ^ d, FNV_PRIME);
          p++;
          continue;
        }
        if ((d === 39 || d === 45 || d === 0x2019) && p + 1 < len && (CLASS[codes[p + 1] & 0xffff] & 1) !== 0) {
          if (d === 0x2019) d = 39;
          h = Math.imul(h ^ d, FNV_PRIME);
          if (d === 45) part = FNV_OFFSET;
          else if (part !== 0) part = Math.imul(part ^ d, FNV_PRIME);
          pieces++;
          // The connector may itself be a name's boundary ("pre-Notion"): let the name probe see the next position.
          if (startsName !== null && p + 1 >= mentionUntil && startsName[codes[p + 1]] === 1 && startsPair[((codes[p + 1] & 0xff) << 8) | (codes[p + 2] & 0xff)] === 1) {
            const name = (probe as NameProbe).matchAt(lowered, p + 1);
            if (name >= 0) {
              out.addCandidate(p + 1, (probe as NameProbe).matchEnd, name);
              mentionUntil = (probe as NameProbe).matchEnd;
            }
          }
          p++;
          continue;
        }
        break;
      }
      tokStart[tokens] = start;
      tokEnd[tokens] = p;
      tokHash[tokens] = h;
      tokPartHash[tokens] = part;
      tokKind[tokens] = TOKEN_WORD;
      runsBefore[tokens] = runs;
      runs += pieces;
      tokens++;
      // Names can also start inside the word after the first character only at a connector (handled above).
      prevWord = true;
      // Positions inside the word are not word boundaries: skip to its end (the name probe ran at its start).
      i = p;
      continue;
    }
    if (c === 46 || c === 33 || c === 63 || c === 0x2026) terminators[terms++] = i;
    else if (isSeparator(c, lowered, i)) {
      tokStart[tokens] = i;
      tokEnd[tokens] = i + 1;
      tokHash[tokens] = c;
      tokPartHash[tokens] = 0;
      tokKind[tokens] = TOKEN_SEPARATOR;
      runsBefore[tokens] = runs;
      tokens++;
    }
    prevWord = (c & 0xfc00) === 0xd800 ? isWordCharAt(lowered, i) : false;
    i++;
  }
  runsBefore[tokens] = runs;
  out.tokenCount = tokens;
  out.terminatorCount = terms;
  return out;
}
