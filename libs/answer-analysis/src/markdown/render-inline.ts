import { isWordCharCode } from '../text/word-chars';
import { findBareUrlEnd, startsBareUrl } from './find-url-end';
import { PlainTextBuilder } from './plain-text-builder';
import { FootnoteRef, InlineUrl, LinkSpan, Span } from './rendered-answer';

/** State shared by the inline rendering of one answer. */
export interface InlineSink {
  readonly out: PlainTextBuilder;
  readonly bold: Span[];
  readonly links: LinkSpan[];
  readonly urls: InlineUrl[];
  readonly footnotes: FootnoteRef[];
  /** Visible offset where the open bold span started, or -1. */
  boldStart: number;
  /** The first markup character at or after `specialFrom` is at `nextSpecial` (src.length: none). */
  specialFrom: number;
  nextSpecial: number;
  /** Likewise the next "http" (looked for apart: an "h" in the class would stop the native scan at every "h" of the text). */
  httpFrom: number;
  nextHttp: number;
}

const ENTITIES: Readonly<Record<string, string>> = {
  '&amp;': '&',
  '&nbsp;': ' ',
  '&quot;': '"',
  '&#39;': "'",
  '&apos;': "'",
  '&lt;': '<',
  '&gt;': '>',
};

function toggleBold(sink: InlineSink): void {
  if (sink.boldStart < 0) {
    sink.boldStart = sink.out.length;
  } else {
    if (sink.out.length > sink.boldStart) sink.bold.push({ start: sink.boldStart, end: sink.out.length });
    sink.boldStart = -1;
  }
}

/** End of a link destination "(...)" starting at `open` (the "("): index of the matching ")", or -1. */
function findDestinationEnd(src: string, open: number, to: number): number {
  let depth = 0;
  for (let p = open; p < to; p++) {
    const c = src.charCodeAt(p);
    if (c === 40) depth++;
    else if (c === 41) {
      depth--;
      if (depth === 0) return p;
    }
  }
  return -1;
}

function destinationUrl(src: string, from: number, to: number): string {
  let s = from;
  while (s < to && src.charCodeAt(s) <= 32) s++;
  let e = s;
  if (src.charAt(s) === '<') {
    const close = src.indexOf('>', s);
    if (close > s && close < to) return src.slice(s + 1, close);
  }
  while (e < to && src.charCodeAt(e) > 32) e++;
  return src.slice(s, e);
}

function isFootnoteText(src: string, from: number, to: number): boolean {
  let p = from;
  if (src.charAt(p) === '^') p++;
  if (p >= to) return from === to;
  for (; p < to; p++) {
    const c = src.charCodeAt(p);
    if (c < 48 || c > 57) return false;
  }
  return to - from <= 4;
}

/** Characters that may start markup: \ * _ ` ~ [ ! < &. One character class: a linear native scan ("http" is found with indexOf). */
const SPECIAL_RE = /[\\*_`~[!<&]/g;

/** Renders the inline markdown of src[from, to) into visible text: emphasis, code and footnote markers dropped, link text kept, URLs recorded and dropped. */
export function renderInline(src: string, from: number, to: number, sink: InlineSink, allowLinks = true): void {
  const out = sink.out;
  // Next "]" at or after an index, remembered so that scanning a line is linear however many "[" it has.
  let closeFrom = -1;
  let closeAt = -1;
  let failedClose = -2;
  let i = from;
  let runStart = from;
  while (i < to) {
    // Jump to the next character that may start markup (a native scan, no per-character JavaScript). The result is
    // kept in the sink: later calls (next lines) reuse it until passed, so the scans stay linear in the answer.
    if (!(sink.specialFrom <= i && i <= sink.nextSpecial)) {
      SPECIAL_RE.lastIndex = i;
      sink.specialFrom = i;
      sink.nextSpecial = SPECIAL_RE.test(src) ? SPECIAL_RE.lastIndex - 1 : src.length;
    }
    if (!(sink.httpFrom <= i && i <= sink.nextHttp)) {
      const at = src.indexOf('http', i);
      sink.httpFrom = i;
      sink.nextHttp = at >= 0 ? at : src.length;
    }
    const next = sink.nextSpecial < sink.nextHttp ? sink.nextSpecial : sink.nextHttp;
    if (next >= to) {
      i = to;
      break;
    }
    i = next;
    const c = src.charCodeAt(i);
    if (c === 92 /* \ */ && i + 1 < to) {
      const n = src.charCodeAt(i + 1);
      if (n < 128 && !isWordCharCode(n) && n > 32) {
        if (runStart < i) out.pushRange(src, runStart, i);
        out.pushChar(src.charAt(i + 1), i + 1);
        i += 2;
        runStart = i;
        continue;
      }
    } else if (c === 42 /* * */ || (c === 95 /* _ */ && (!isWordCharCode(src.charCodeAt(i - 1)) || !isWordCharCode(src.charCodeAt(i + 1) || 0)))) {
      if (runStart < i) out.pushRange(src, runStart, i);
      let n = i;
      while (n < to && src.charCodeAt(n) === c) n++;
      if (n - i >= 2) toggleBold(sink);
      i = n;
      runStart = i;
      continue;
    } else if (c === 96 /* ` */) {
      if (runStart < i) out.pushRange(src, runStart, i);
      i++;
      runStart = i;
      continue;
    } else if (c === 126 /* ~ */ && src.charCodeAt(i + 1) === 126) {
      if (runStart < i) out.pushRange(src, runStart, i);
      i += 2;
      runStart = i;
      continue;
    } else if (c === 91 /* [ */ || (c === 33 /* ! */ && src.charCodeAt(i + 1) === 91)) {
      const open = c === 33 ? i + 1 : i;
      if (allowLinks) {
        if (!(closeFrom >= 0 && open + 1 >= closeFrom && (closeAt === -1 || open + 1 <= closeAt))) {
          const at = src.indexOf(']', open + 1);
          closeFrom = open + 1;
          closeAt = at >= 0 && at < to ? at : -1;
        }
        const close = closeAt;
        if (close > 0 && close !== failedClose) {
          // Footnote marker: [3] or [^3]
          if (c === 91 && src.charCodeAt(close + 1) !== 40 && isFootnoteText(src, open + 1, close) && close > open + 1) {
            if (runStart < i) out.pushRange(src, runStart, i);
            const digits = src.slice(src.charAt(open + 1) === '^' ? open + 2 : open + 1, close);
            sink.footnotes.push({ n: Number(digits), offset: out.length });
            i = close + 1;
            runStart = i;
            continue;
          }
          if (src.charCodeAt(close + 1) === 40 /* ( */) {
            const destEnd = findDestinationEnd(src, close + 1, to);
            if (destEnd > 0) {
              if (runStart < i) out.pushRange(src, runStart, i);
              const url = destinationUrl(src, close + 2, destEnd);
              const linkStart = out.length;
              if (c === 91 && !isFootnoteText(src, open + 1, close)) {
                renderInline(src, open + 1, close, sink, false);
                if (out.length > linkStart) sink.links.push({ start: linkStart, end: out.length, url });
              }
              sink.urls.push({ url, offset: linkStart });
              i = destEnd + 1;
              runStart = i;
              continue;
            }
          }
          failedClose = close;
        }
      }
    } else if (c === 60 /* < */) {
      if (src.startsWith('http', i + 1)) {
        let p = i + 1;
        while (p < to && src.charCodeAt(p) > 32 && src.charCodeAt(p) !== 62) p++;
        if (src.charCodeAt(p) === 62) {
          if (runStart < i) out.pushRange(src, runStart, i);
          sink.urls.push({ url: src.slice(i + 1, p), offset: out.length });
          i = p + 1;
          runStart = i;
          continue;
        }
      } else {
        // A short HTML tag such as <br> or </b>: replaced by a space.
        const n = src.charCodeAt(i + 1);
        if ((n >= 65 && n <= 90) || (n >= 97 && n <= 122) || n === 47) {
          const close = src.indexOf('>', i + 1);
          if (close > 0 && close < to && close - i <= 40 && src.lastIndexOf('<', close - 1) === i) {
            if (runStart < i) out.pushRange(src, runStart, i);
            out.pushChar(' ', i);
            i = close + 1;
            runStart = i;
            continue;
          }
        }
      }
    } else if (c === 104 /* h */ && startsBareUrl(src, i)) {
      if (runStart < i) out.pushRange(src, runStart, i);
      const end = findBareUrlEnd(src, i, to);
      sink.urls.push({ url: src.slice(i, end), offset: out.length });
      i = end;
      runStart = i;
      continue;
    } else if (c === 38 /* & */) {
      const semi = src.indexOf(';', i);
      if (semi > i && semi - i <= 6) {
        const decoded = ENTITIES[src.slice(i, semi + 1)];
        if (decoded !== undefined) {
          if (runStart < i) out.pushRange(src, runStart, i);
          out.pushChar(decoded, i);
          i = semi + 1;
          runStart = i;
          continue;
        }
      }
    }
    i++;
  }
  if (runStart < i) out.pushRange(src, runStart, i);
}
