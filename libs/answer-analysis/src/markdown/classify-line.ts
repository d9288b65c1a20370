/** What a markdown source line is, from its first characters (no regular expressions: linear and safe on any input). */
export type LineShape =
  | { readonly kind: 'blank' }
  | { readonly kind: 'fence' }
  | { readonly kind: 'rule' }
  | { readonly kind: 'heading'; readonly level: number; readonly contentStart: number; readonly contentEnd: number }
  | { readonly kind: 'listItem'; readonly indent: number; readonly contentStart: number }
  | { readonly kind: 'table' }
  | { readonly kind: 'tableDelimiter' }
  | { readonly kind: 'paragraph'; readonly contentStart: number };

function isSpace(c: number): boolean {
  return c === 32 || c === 9;
}

export function classifyLine(src: string, start: number, end: number): LineShape {
  // Blockquote markers, nested to any depth (`> > - item`): stripped in a loop (a line of 5,000 `> `
  // must not recurse 5,000 deep), then the rest is classified, its indent counted after the last marker.
  let from = start;
  let p = start;
  for (;;) {
    while (p < end && (isSpace(src.charCodeAt(p)) || src.charCodeAt(p) === 13)) p++;
    if (p >= end || src.charCodeAt(p) !== 62 /* > */) break;
    while (p < end && src.charCodeAt(p) === 62) p++;
    from = p;
  }
  if (p >= end) return { kind: 'blank' };
  const indent = p - from;
  const c = src.charCodeAt(p);
  if ((c === 96 || c === 126) && src.startsWith(c === 96 ? '```' : '~~~', p)) return { kind: 'fence' };
  if (c === 35 /* # */ && indent <= 3) {
    let q = p;
    while (q < end && src.charCodeAt(q) === 35) q++;
    const level = q - p;
    if (level <= 6 && (q === end || isSpace(src.charCodeAt(q)))) {
      let contentEnd = end;
      while (contentEnd > q && (isSpace(src.charCodeAt(contentEnd - 1)) || src.charCodeAt(contentEnd - 1) === 13)) contentEnd--;
      let hashes = contentEnd;
      while (hashes > q && src.charCodeAt(hashes - 1) === 35) hashes--;
      if (hashes < contentEnd && (hashes === q || isSpace(src.charCodeAt(hashes - 1)))) contentEnd = hashes;
      return { kind: 'heading', level, contentStart: q, contentEnd };
    }
  }
  // Thematic break: three or more of the same -, * or _ (spaces allowed).
  if (c === 45 || c === 42 || c === 95) {
    let count = 0;
    let only = true;
    for (let q = p; q < end; q++) {
      const d = src.charCodeAt(q);
      if (d === c) count++;
      else if (!isSpace(d) && d !== 13) {
        only = false;
        break;
      }
    }
    if (only && count >= 3) return { kind: 'rule' };
  }
  if ((c === 45 || c === 42 || c === 43) && p + 1 < end && isSpace(src.charCodeAt(p + 1))) {
    let q = p + 1;
    while (q < end && isSpace(src.charCodeAt(q))) q++;
    return { kind: 'listItem', indent, contentStart: q };
  }
  if (c >= 48 && c <= 57) {
    let q = p;
    while (q < end && q - p < 9 && src.charCodeAt(q) >= 48 && src.charCodeAt(q) <= 57) q++;
    const d = src.charCodeAt(q);
    if ((d === 46 || d === 41) && q + 1 < end && isSpace(src.charCodeAt(q + 1))) {
      let r = q + 1;
      while (r < end && isSpace(src.charCodeAt(r))) r++;
      return { kind: 'listItem', indent, contentStart: r };
    }
  }
  if (c === 124 /* | */ || c === 58 /* : */ || c === 45) {
    // A delimiter row holds only |, :, - and spaces, with at least one | and one -.
    let pipes = 0;
    let dashes = 0;
    let other = false;
    for (let q = p; q < end; q++) {
      const d = src.charCodeAt(q);
      if (d === 124) pipes++;
      else if (d === 45) dashes++;
      else if (d !== 58 && !isSpace(d) && d !== 13) {
        other = true;
        break;
      }
    }
    if (!other && pipes > 0 && dashes > 0) return { kind: 'tableDelimiter' };
  }
  if (c === 124) return { kind: 'table' };
  return { kind: 'paragraph', contentStart: p };
}
