/**
 * Character classes as lookup tables (built once at load): whether a UTF-16 code unit is part of a word (a letter, a
 * digit or a combining mark, in any script) and whether it is an upper-case letter. A table read is what every hot
 * loop of the analysis needs per character; a regular expression test per character would dominate the run time.
 */
const NON_ASCII_WORD = /[\p{L}\p{N}\p{M}]/u;

/** Bit 1: word character; bit 2: upper-case letter (a letter whose lower case differs). */
const CLASS = new Uint8Array(65536);
for (let c = 0; c < 65536; c++) {
  let bits = 0;
  if (c < 128) {
    if ((c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122)) bits |= 1;
  } else if (c < 0xd800 || c > 0xdfff) {
    if (NON_ASCII_WORD.test(String.fromCharCode(c))) bits |= 1;
  }
  if (c >= 65 && c <= 90) bits |= 2;
  else if (c >= 128 && (c < 0xd800 || c > 0xdfff)) {
    const ch = String.fromCharCode(c);
    const lower = ch.toLowerCase();
    if (lower !== ch && ch.toUpperCase() === ch) bits |= 2;
  }
  CLASS[c] = bits;
}

/**
 * The class table itself, for hot loops to hold in a module constant: `(table[c] & 1) !== 0` is a word character,
 * `& 2` an upper-case letter. (A call through a CommonJS export getter per character costs more than the read.)
 */
export function charClassTable(): Uint8Array {
  return CLASS;
}

/** Whether a code unit is part of a word (lone surrogates are not; see isWordCharAt for astral characters). */
export function isWordCharCode(code: number): boolean {
  return (CLASS[code & 0xffff] & 1) !== 0; // NaN (an index past the end) reads class 0
}

export function isWordCharAt(text: string, index: number): boolean {
  if (index < 0 || index >= text.length) return false;
  const code = text.charCodeAt(index);
  if (code < 0xd800 || code > 0xdfff) return (CLASS[code] & 1) !== 0;
  // Surrogate pairs: test the whole code point.
  const cp = text.codePointAt(index) ?? code;
  return NON_ASCII_WORD.test(String.fromCodePoint(cp));
}

/** Whether a code unit is an upper-case letter. */
export function isUpperCode(code: number): boolean {
  return (CLASS[code & 0xffff] & 2) !== 0;
}

export function isUpperCaseAt(text: string, index: number): boolean {
  const ch = text.charAt(index);
  return ch !== '' && ch !== ch.toLowerCase() && ch === ch.toUpperCase();
}
