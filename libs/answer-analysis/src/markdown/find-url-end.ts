import { isWordCharCode } from '../text/word-chars';

const TRAILING_PUNCTUATION = '.,;:!?\'"*_~';

/**
 * End (exclusive) of a bare URL starting at `start` (which holds "http"): up to whitespace or a character that
 * cannot stand in a bare URL, less trailing punctuation and unbalanced closing brackets. Linear in the URL's length.
 */
export function findBareUrlEnd(text: string, start: number, limit: number): number {
  let end = start;
  let openParens = 0;
  let closeParens = 0;
  while (end < limit) {
    const c = text.charCodeAt(end);
    // whitespace, <, >, ", `, [, ], {, }, |, \
    if (c <= 32 || c === 60 || c === 62 || c === 34 || c === 96 || c === 91 || c === 93 || c === 123 || c === 125 || c === 124 || c === 92) break;
    if (c === 0x3000 || c === 0xa0) break;
    if (c === 40) openParens++;
    else if (c === 41) closeParens++;
    end++;
  }
  // Trim trailing punctuation and unbalanced ")".
  for (;;) {
    if (end <= start) break;
    const ch = text.charAt(end - 1);
    if (TRAILING_PUNCTUATION.includes(ch)) {
      end--;
      continue;
    }
    if (ch === ')' && closeParens > openParens) {
      closeParens--;
      end--;
      continue;
    }
    break;
  }
  return end;
}

/** Whether a bare URL starts at `index` ("http://" or "https://", not inside a word). */
export function startsBareUrl(text: string, index: number): boolean {
  if (text.charCodeAt(index) !== 104 /* h */) return false;
  if (index > 0 && isWordCharCode(text.charCodeAt(index - 1))) return false;
  return text.startsWith('http://', index) || text.startsWith('https://', index);
}
