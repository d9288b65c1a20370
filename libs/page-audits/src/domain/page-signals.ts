import { Parser } from 'htmlparser2';

/** One JSON-LD item found on a page (top level, or inside an @graph). */
export interface JsonLdItem {
  types: string[];
  /** Its property names (without @context/@type/@id). */
  props: string[];
  /** Types of nested items (offers → Offer, mainEntity → Question, …), up to three levels down. */
  nestedTypes: string[];
  /** FAQPage: questions with an accepted answer; HowTo: steps. */
  parts: number;
}

export interface JsonLdBlock {
  ok: boolean;
  /** Why it does not parse (JSON.parse's message), when it does not. */
  error: string | null;
  items: JsonLdItem[];
}

/**
 * What scoring needs from a page, extracted in one pass of the HTML (htmlparser2's tokenizer, no
 * DOM). Small and JSON-serialisable: it is kept with each audit so a page answered `304 Not
 * Modified` is scored again (with today's robots.txt and dates) without its HTML.
 */
export interface PageSignals {
  title: string | null;
  description: string | null;
  lang: string | null;
  /** `<meta name="robots">` content, lower-cased. */
  metaRobots: string | null;
  canonical: string | null;
  headings: { level: number; text: string }[];
  jsonLd: JsonLdBlock[];
  /** Words of the content (nav, header, footer, aside and forms left out). */
  words: number;
  sentences: number;
  syllables: number;
  /** The first paragraph of 8 words or more: where it starts (content words before it) and its length. */
  lead: { wordsBefore: number; words: number; text: string } | null;
  /** Figures in the content: percentages, amounts, counts with units, "N times"… */
  statistics: number;
  statisticExamples: string[];
  /** `<blockquote>`, `<q>`, and quoted passages of five words or more in the text. */
  quotations: number;
  quotationExamples: string[];
  /** Links in the content to other sites (sources), and a few of them. */
  outboundLinks: number;
  outboundExamples: string[];
  /** Dates found: JSON-LD datePublished/dateModified, article meta, `<time datetime>`, "updated …" in the text (ISO days). */
  dates: { source: 'json-ld' | 'meta' | 'time' | 'text'; kind: 'published' | 'modified' | 'other'; day: string }[];
  /** Hints of what the page is: a price, an add-to-cart, steps, questions as headings, an article byline. */
  hints: { price: boolean; cart: boolean; steps: number; questionHeadings: number; byline: boolean };
}

const SKIPPED = new Set(['script', 'style', 'noscript', 'template', 'svg', 'iframe', 'object', 'canvas', 'select', 'textarea', 'button']);
const BOILERPLATE = new Set(['nav', 'header', 'footer', 'aside', 'form']);
const BLOCK = new Set(['p', 'div', 'section', 'article', 'main', 'li', 'ul', 'ol', 'table', 'tr', 'td', 'th', 'br', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'blockquote', 'dd', 'dt', 'figcaption', 'pre', 'hr']);
const MAX_HEADINGS = 200;
const EXAMPLES = 5;

const STATISTIC = /(?:[$€£¥]\s?\d[\d,]*(?:\.\d+)?(?:\s?(?:k|m|bn|million|billion))?|\b\d[\d,]*(?:\.\d+)?\s?(?:%|percent\b|per cent\b|x\b|times\b|million\b|billion\b|thousand\b|users\b|customers\b|companies\b|teams\b|hours\b|minutes\b|days\b|weeks\b|months\b|years\b|ms\b|seconds\b|GB\b|MB\b|TB\b|km\b|kg\b|miles\b|stars\b|reviews\b)|\b\d+(?:\.\d+)?\s?out of\s?\d+\b|\b\d+(?:\.\d+)?\/\d+\b)/gi;
const QUOTED = /[“"«]([^”"»]{20,400})[”"»]/g;
const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
const ISO_DAY = /\b(19\d\d|20\d\d)-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])\b/g;
const UPDATED = new RegExp(`\\b(?:updated|published|posted|last reviewed|reviewed|modified)(?:\\s+on)?:?\\s+(?:(${MONTHS.join('|')})\\s+(\\d{1,2}),?\\s+((?:19|20)\\d\\d)|(\\d{1,2})\\s+(${MONTHS.join('|')})\\s+((?:19|20)\\d\\d)|((?:19|20)\\d\\d)-(\\d\\d)-(\\d\\d))`, 'gi');

const VOWEL = new Uint8Array(128);
for (const c of 'aeiouyAEIOUY') VOWEL[c.charCodeAt(0)] = 1;

/** Syllables of text[from, to) as one English word: vowel groups, a silent final e dropped; 0 without a letter. */
function syllablesIn(text: string, from: number, to: number): number {
  let letters = 0;
  let groups = 0;
  let previousVowel = false;
  let last = -1;
  let beforeLast = -1;
  for (let k = from; k < to; k++) {
    const code = text.charCodeAt(k) | 0x20;
    if (code < 97 || code > 122) continue;
    letters++;
    const vowel = VOWEL[code] === 1 && !(letters === 1 && code === 121);
    if (vowel && !previousVowel) groups++;
    previousVowel = vowel;
    beforeLast = last;
    last = code;
  }
  if (!letters) return 0;
  if (letters <= 3) return 1;
  // A final silent e ("table" keeps it: consonant + le).
  if (last === 101 && beforeLast !== -1 && VOWEL[beforeLast] !== 1 && beforeLast !== 108 && groups > 1) groups--;
  return Math.max(1, groups);
}

/** Counts syllables of an English word by vowel groups (a silent final e dropped), at least one for a word with a letter. */
export function syllablesOf(word: string): number {
  return syllablesIn(word, 0, word.length);
}

/** Words (runs of non-space characters holding a letter or digit) and their syllables, in one pass over the text. */
export function wordStats(text: string): { words: number; syllables: number } {
  let words = 0;
  let syllables = 0;
  let start = -1;
  let digit = false;
  for (let k = 0; k <= text.length; k++) {
    const c = k < text.length ? text.charCodeAt(k) : 32;
    if (c === 32 || c === 10 || c === 9 || c === 13 || c === 160 || c === 12) {
      if (start >= 0) {
        const n = syllablesIn(text, start, k);
        if (n) {
          words++;
          syllables += n;
        } else if (digit) words++;
      }
      start = -1;
      digit = false;
    } else {
      if (start < 0) start = k;
      if (c >= 48 && c <= 57) digit = true;
    }
  }
  return { words, syllables };
}

const pad = (n: number) => String(n).padStart(2, '0');

/** A date-like string as an ISO day (YYYY-MM-DD), or null. */
export function isoDay(text: string): string | null {
  const m = /^\s*((?:19|20)\d\d)-(\d\d)-(\d\d)/.exec(text);
  if (m) return validDay(+m[1], +m[2], +m[3]);
  const t = Date.parse(text);
  if (!Number.isFinite(t)) return null;
  const d = new Date(t);
  return validDay(d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate());
}

function validDay(y: number, m: number, d: number): string | null {
  const date = new Date(Date.UTC(y, m - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d) return null;
  return `${y}-${pad(m)}-${pad(d)}`;
}

function typesOf(value: unknown): string[] {
  if (typeof value === 'string') return [value.replace(/^https?:\/\/schema\.org\//, '')];
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === 'string').map((v) => v.replace(/^https?:\/\/schema\.org\//, ''));
  return [];
}

function nestedTypes(value: unknown, depth: number, out: Set<string>): void {
  if (depth > 3 || value === null || typeof value !== 'object') return;
  if (Array.isArray(value)) {
    for (const v of value.slice(0, 100)) nestedTypes(v, depth, out);
    return;
  }
  for (const [k, v] of Object.entries(value)) {
    if (k === '@type') continue;
    if (v && typeof v === 'object') {
      for (const item of Array.isArray(v) ? v.slice(0, 100) : [v]) {
        if (item && typeof item === 'object') for (const t of typesOf((item as Record<string, unknown>)['@type'])) out.add(t);
        nestedTypes(item, depth + 1, out);
      }
    }
  }
}

function partsOf(item: Record<string, unknown>, types: string[]): number {
  const list = (v: unknown) => (Array.isArray(v) ? v : v === undefined || v === null ? [] : [v]);
  if (types.includes('FAQPage')) {
    return list(item.mainEntity).filter((q) => q && typeof q === 'object' && (q as Record<string, unknown>).acceptedAnswer !== undefined).length;
  }
  if (types.includes('HowTo')) return list(item.step).length;
  return 0;
}

/** Parses one `application/ld+json` block into its items (an array, an @graph, or one object). */
export function parseJsonLd(text: string, dates: PageSignals['dates']): JsonLdBlock {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return { ok: false, error: (error as Error).message.slice(0, 200), items: [] };
  }
  const roots = Array.isArray(parsed) ? parsed : [parsed];
  const items: JsonLdItem[] = [];
  for (const root of roots.slice(0, 100)) {
    if (!root || typeof root !== 'object') continue;
    const graph = (root as Record<string, unknown>)['@graph'];
    for (const node of Array.isArray(graph) ? graph.slice(0, 100) : [root]) {
      if (!node || typeof node !== 'object' || Array.isArray(node)) continue;
      const item = node as Record<string, unknown>;
      const types = typesOf(item['@type']);
      const nested = new Set<string>();
      nestedTypes(item, 1, nested);
      items.push({ types, props: Object.keys(item).filter((k) => !k.startsWith('@')), nestedTypes: [...nested], parts: partsOf(item, types) });
      for (const [key, kind] of [['datePublished', 'published'], ['dateModified', 'modified']] as const) {
        const day = typeof item[key] === 'string' ? isoDay(item[key]) : null;
        if (day) dates.push({ source: 'json-ld', kind, day });
      }
    }
  }
  return { ok: true, error: null, items };
}

function resolvedHost(href: string, base: URL): string | null {
  try {
    const u = new URL(href, base);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.hostname.replace(/^www\./, '') : null;
  } catch {
    return null;
  }
}

function textDates(text: string, dates: PageSignals['dates']): void {
  UPDATED.lastIndex = 0;
  for (let m = UPDATED.exec(text); m && dates.length < 50; m = UPDATED.exec(text)) {
    let day: string | null = null;
    if (m[1]) day = validDay(+m[3], MONTHS.indexOf(m[1].toLowerCase()) + 1, +m[2]);
    else if (m[5]) day = validDay(+m[6], MONTHS.indexOf(m[5].toLowerCase()) + 1, +m[4]);
    else if (m[7]) day = validDay(+m[7], +m[8], +m[9]);
    if (day) dates.push({ source: 'text', kind: /^(published|posted)/i.test(m[0]) ? 'published' : 'modified', day });
  }
  ISO_DAY.lastIndex = 0;
  let found = 0;
  for (let m = ISO_DAY.exec(text); m && found < 10; m = ISO_DAY.exec(text)) {
    const day = validDay(+m[1], +m[2], +m[3]);
    if (day && !dates.some((d) => d.day === day && d.source === 'text')) {
      dates.push({ source: 'text', kind: 'other', day });
      found++;
    }
  }
}

/**
 * Reads a page's HTML once and returns its signals. Never throws on bad markup (htmlparser2 is
 * forgiving); a broken JSON-LD block is kept with its parse error.
 */
export function extractSignals(html: string, pageUrl: string): PageSignals {
  const base = new URL(pageUrl);
  const ownHost = base.hostname.replace(/^www\./, '');
  const s: PageSignals = {
    title: null,
    description: null,
    lang: null,
    metaRobots: null,
    canonical: null,
    headings: [],
    jsonLd: [],
    words: 0,
    sentences: 0,
    syllables: 0,
    lead: null,
    statistics: 0,
    statisticExamples: [],
    quotations: 0,
    quotationExamples: [],
    outboundLinks: 0,
    outboundExamples: [],
    dates: [],
    hints: { price: false, cart: false, steps: 0, questionHeadings: 0, byline: false },
  };
  const content: string[] = [];
  let skipped = 0;
  let boilerplate = 0;
  let inHead = false;
  let title: string[] | null = null;
  let script: string[] | null = null;
  let heading: { level: number; text: string[] } | null = null;
  let paragraph: string[] | null = null;
  let paragraphDepth = 0;
  /** Content words before the paragraph being read. */
  let paragraphStart = 0;
  const olItems: number[] = [];
  let contentWords = 0;
  const outbound = new Set<string>();
  let counted = 0;
  /** Content words so far, counting only the chunks added since the last call. */
  const countWords = (parts: string[]): number => {
    for (; counted < parts.length; counted++) {
      const m = parts[counted].match(/\S+/g);
      if (m) contentWords += m.length;
    }
    return contentWords;
  };

  const parser = new Parser(
    {
      onopentag(name, attrs) {
        if (BLOCK.has(name)) content.push(' ');
        switch (name) {
          case 'html':
            if (attrs.lang) s.lang = attrs.lang.trim().slice(0, 20) || null;
            break;
          case 'head':
            inHead = true;
            break;
          case 'title':
            if (s.title === null) title = [];
            break;
          case 'meta': {
            const key = (attrs.name ?? attrs.property ?? attrs.itemprop ?? '').toLowerCase();
            const value = attrs.content ?? '';
            if (key === 'description' && s.description === null) s.description = value.replace(/\s+/g, ' ').trim();
            else if (key === 'robots') s.metaRobots = value.toLowerCase().trim();
            else if (key === 'article:published_time' || key === 'datepublished') {
              const day = isoDay(value);
              if (day) s.dates.push({ source: 'meta', kind: 'published', day });
            } else if (key === 'article:modified_time' || key === 'og:updated_time' || key === 'datemodified' || key === 'last-modified') {
              const day = isoDay(value);
              if (day) s.dates.push({ source: 'meta', kind: 'modified', day });
            } else if (key === 'author' || key === 'article:author') s.hints.byline = true;
            break;
          }
          case 'link':
            if ((attrs.rel ?? '').toLowerCase().split(/\s+/).includes('canonical') && attrs.href) s.canonical = attrs.href.slice(0, 2000);
            break;
          case 'script':
            if ((attrs.type ?? '').toLowerCase().trim() === 'application/ld+json') script = [];
            else skipped++;
            return;
          case 'h1':
          case 'h2':
          case 'h3':
          case 'h4':
          case 'h5':
          case 'h6':
            heading = { level: Number(name[1]), text: [] };
            break;
          case 'p':
            if (!skipped && !boilerplate) {
              if (paragraphDepth === 0 && s.lead === null) {
                paragraph = [];
                paragraphStart = countWords(content);
              }
              paragraphDepth++;
            }
            break;
          case 'blockquote':
          case 'q':
            if (!skipped && !boilerplate) s.quotations++;
            break;
          case 'a': {
            if (skipped || boilerplate || !attrs.href) break;
            const host = resolvedHost(attrs.href, base);
            if (host && host !== ownHost && !host.endsWith(`.${ownHost}`)) {
              s.outboundLinks++;
              if (!outbound.has(host) && outbound.size < EXAMPLES) outbound.add(host);
            }
            if (/cart|checkout|buy/i.test(attrs.href)) s.hints.cart = true;
            break;
          }
          case 'time': {
            const day = attrs.datetime ? isoDay(attrs.datetime) : null;
            if (day) s.dates.push({ source: 'time', kind: /modif|updat/i.test(attrs.itemprop ?? attrs.class ?? '') ? 'modified' : /publish/i.test(attrs.itemprop ?? attrs.class ?? '') ? 'published' : 'other', day });
            break;
          }
          case 'ol':
            olItems.push(0);
            break;
          case 'li':
            if (olItems.length) olItems[olItems.length - 1]++;
            break;
          case 'address':
            s.hints.byline = true;
            break;
        }
        if (attrs.rel === 'author' || attrs.itemprop === 'author') s.hints.byline = true;
        const marks = attrs.class || attrs.id;
        if (marks) {
          const text = `${attrs.class ?? ''} ${attrs.id ?? ''}`;
          if (/\bbyline\b|\bauthor\b/.test(text)) s.hints.byline = true;
          if (/add[-_ ]?to[-_ ]?cart|buy[-_ ]?now/i.test(text)) s.hints.cart = true;
        }
        if (SKIPPED.has(name)) skipped++;
        else if (BOILERPLATE.has(name)) boilerplate++;
      },
      ontext(text) {
        if (script) return void script.push(text);
        if (title) return void title.push(text);
        if (skipped || inHead) return;
        if (heading) heading.text.push(text);
        if (boilerplate) return;
        if (paragraph && s.lead === null) paragraph.push(text);
        content.push(text);
      },
      onclosetag(name) {
        if (BLOCK.has(name)) content.push(' ');
        switch (name) {
          case 'head':
            inHead = false;
            break;
          case 'title':
            if (title) s.title = title.join('').replace(/\s+/g, ' ').trim();
            title = null;
            break;
          case 'script':
            if (script) {
              if (s.jsonLd.length < 20) s.jsonLd.push(parseJsonLd(script.join(''), s.dates));
              script = null;
            } else skipped = Math.max(0, skipped - 1);
            return;
          case 'h1':
          case 'h2':
          case 'h3':
          case 'h4':
          case 'h5':
          case 'h6':
            if (heading) {
              const text = heading.text.join('').replace(/\s+/g, ' ').trim();
              if (s.headings.length < MAX_HEADINGS) s.headings.push({ level: heading.level, text: text.slice(0, 300) });
              if (text.endsWith('?')) s.hints.questionHeadings++;
              if (/^step\s*\d+/i.test(text)) s.hints.steps++;
              heading = null;
            }
            break;
          case 'p':
            if (paragraphDepth > 0 && --paragraphDepth === 0 && paragraph && s.lead === null) {
              const text = paragraph.join('').replace(/\s+/g, ' ').trim();
              const words = text ? text.split(' ').length : 0;
              if (s.lead === null && words >= 8) {
                s.lead = { wordsBefore: paragraphStart, words, text: text.slice(0, 500) };
              }
              paragraph = null;
            }
            break;
          case 'ol': {
            const items = olItems.pop() ?? 0;
            if (items >= 3) s.hints.steps = Math.max(s.hints.steps, items);
            break;
          }
        }
        if (SKIPPED.has(name)) skipped = Math.max(0, skipped - 1);
        else if (BOILERPLATE.has(name)) boilerplate = Math.max(0, boilerplate - 1);
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.write(html);
  parser.end();

  // The content as one text (whitespace as it came: the patterns below allow for it), and its words and syllables in one pass.
  const text = content.join('');
  const stats = wordStats(text);
  s.words = stats.words;
  s.syllables = stats.syllables;
  s.sentences = Math.max(s.words ? 1 : 0, (text.match(/[.!?]+(?=\s|$)/g) ?? []).length);
  STATISTIC.lastIndex = 0;
  for (let m = STATISTIC.exec(text); m; m = STATISTIC.exec(text)) {
    s.statistics++;
    if (s.statisticExamples.length < EXAMPLES) s.statisticExamples.push(m[0].trim());
  }
  QUOTED.lastIndex = 0;
  for (let m = QUOTED.exec(text); m; m = QUOTED.exec(text)) {
    if (m[1].trim().split(/\s+/).length < 5) continue;
    s.quotations++;
    if (s.quotationExamples.length < EXAMPLES) s.quotationExamples.push(m[1].trim().slice(0, 160));
  }
  s.outboundExamples = [...outbound];
  s.hints.price = /[$€£¥]\s?\d|\b\d+(?:\.\d\d)?\s?(?:USD|EUR|GBP)\b|\bper (?:month|user|seat|year)\b|\/mo\b/i.test(text);
  textDates(text, s.dates);
  return s;
}
