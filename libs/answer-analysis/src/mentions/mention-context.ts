import { Block, RenderedAnswer, Span } from '../markdown/rendered-answer';
import { isUpperCaseAt, isWordCharCode } from '../text/word-chars';

/** What surrounds a candidate occurrence: the facts the disambiguation rules read. */
export interface MentionContext {
  readonly surface: string;
  readonly block: Block;
  readonly possessive: boolean;
  /** The next word on the line (after a possessive), or '' when punctuation or the line end comes first. */
  readonly nextWord: string;
  /** The character after the name (and possessive) when it is not a word: "(", ",", ":" or '' at the line end. */
  readonly nextPunctuation: string;
  /** The word after `nextWord`, when only spaces separate them. */
  readonly wordAfterNext: string;
  /** The previous word when only spaces separate it from the name, else ''. */
  readonly previousWord: string;
  readonly wordBeforePrevious: string;
  /** At the start of a sentence, a line, a table cell, or right after a bold label such as "**Verdict:**". */
  readonly clauseStart: boolean;
  readonly inBold: boolean;
  /** Inside link text; the link's target. */
  readonly linkUrl: string | null;
}

function findBlock(blocks: readonly Block[], pos: number): Block {
  let lo = 0;
  let hi = blocks.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (blocks[mid].start <= pos) lo = mid;
    else hi = mid - 1;
  }
  return blocks[lo];
}

function spanAround(spans: readonly Span[], start: number, end: number): number {
  let lo = 0;
  let hi = spans.length - 1;
  let best = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (spans[mid].start <= start) {
      best = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  for (let k = best; k >= 0 && k >= best - 2; k--) {
    if (spans[k].start <= start && spans[k].end >= end) return k;
  }
  return -1;
}

function wordBackFrom(text: string, p: number, limit: number): { word: string; start: number } {
  let q = p;
  while (q > limit && (text.charAt(q - 1) === ' ' || text.charAt(q - 1) === '\t')) q--;
  if (q === p && p > limit && text.charAt(p - 1) !== ' ') return { word: '', start: p };
  let s = q;
  while (s > limit && (isWordCharCode(text.charCodeAt(s - 1)) || text.charAt(s - 1) === "'" || text.charAt(s - 1) === '’')) s--;
  return { word: text.slice(s, q), start: s };
}

function wordForwardFrom(text: string, p: number, limit: number): { word: string; end: number; punctuation: string } {
  let q = p;
  while (q < limit && (text.charAt(q) === ' ' || text.charAt(q) === '\t')) q++;
  if (q >= limit) return { word: '', end: q, punctuation: '' };
  if (!isWordCharCode(text.charCodeAt(q))) return { word: '', end: q, punctuation: text.charAt(q) };
  let e = q;
  while (e < limit && (isWordCharCode(text.charCodeAt(e)) || ((text.charAt(e) === "'" || text.charAt(e) === '’') && isWordCharCode(text.charCodeAt(e + 1))))) e++;
  return { word: text.slice(q, e), end: e, punctuation: '' };
}

const OPENERS = '"\'“‘([*';

function isClauseStart(rendered: RenderedAnswer, block: Block, pos: number): boolean {
  const text = rendered.text;
  let p = pos;
  while (p > block.start && (text.charAt(p - 1) === ' ' || text.charAt(p - 1) === '\t' || OPENERS.includes(text.charAt(p - 1)))) p--;
  if (p <= block.start) return true;
  const ch = text.charAt(p - 1);
  if (ch === '.' || ch === '!' || ch === '?' || ch === '…' || ch === '|') return true;
  if (ch === ':' || ch === '–' || ch === '—') {
    // Right after a bold label at the start of the line ("**Verdict:** ...").
    const k = spanAround(rendered.bold, p - 1, p - 1);
    const b = k >= 0 ? rendered.bold[k] : null;
    if (b !== null && b.start <= block.start + 1) return true;
    if (ch !== ':') {
      const before = spanAround(rendered.bold, p - 3, p - 2);
      if (before >= 0 && rendered.bold[before].start <= block.start + 1) return true;
    }
    if (ch === ':' && p - 1 <= block.leadEnd && block.leadEnd > block.start && block.kind === 'listItem') return true;
  }
  return false;
}

export function describeContext(rendered: RenderedAnswer, start: number, end: number): MentionContext {
  const text = rendered.text;
  const block = findBlock(rendered.blocks, start);
  const lineEnd = block.end;
  let after = end;
  let possessive = false;
  const c0 = text.charAt(end);
  if ((c0 === "'" || c0 === '’') && (text.charAt(end + 1) === 's' || text.charAt(end + 1) === 'S') && !isWordCharCode(text.charCodeAt(end + 2))) {
    possessive = true;
    after = end + 2;
  } else if ((c0 === "'" || c0 === '’') && (text.charAt(end - 1) === 's' || text.charAt(end - 1) === 'S') && !isWordCharCode(text.charCodeAt(end + 1))) {
    possessive = true;
    after = end + 1;
  }
  const next = wordForwardFrom(text, after, lineEnd);
  const afterNext = next.word === '' ? { word: '' } : wordForwardFrom(text, next.end, lineEnd);
  const prev = wordBackFrom(text, start, block.start);
  const prev2 = prev.word === '' ? { word: '' } : wordBackFrom(text, prev.start, block.start);
  const boldIndex = spanAround(rendered.bold, start, end);
  const linkIndex = spanAround(rendered.links, start, end);
  return {
    surface: text.slice(start, end),
    block,
    possessive,
    nextWord: next.word,
    nextPunctuation: next.punctuation,
    wordAfterNext: afterNext.word,
    previousWord: prev.word,
    wordBeforePrevious: prev2.word,
    clauseStart: isClauseStart(rendered, block, start),
    inBold: boldIndex >= 0,
    linkUrl: linkIndex >= 0 ? rendered.links[linkIndex].url : null,
  };
}

export { isUpperCaseAt };
