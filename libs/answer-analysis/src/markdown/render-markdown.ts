import { classifyLine } from './classify-line';
import { InlineSink, renderInline } from './render-inline';
import { PlainTextBuilder } from './plain-text-builder';
import { Block, BlockKind, RenderedAnswer } from './rendered-answer';

interface PendingBlock {
  kind: BlockKind;
  level: number;
  start: number;
  end: number;
  leadEnd: number;
  boldLead: boolean;
  boldFrom: number;
  linkFrom: number;
}

interface Line {
  readonly start: number;
  readonly end: number;
}

function splitLines(src: string): Line[] {
  const lines: Line[] = [];
  let pos = 0;
  for (;;) {
    const nl = src.indexOf('\n', pos);
    if (nl < 0) {
      lines.push({ start: pos, end: src.length });
      return lines;
    }
    lines.push({ start: pos, end: nl });
    pos = nl + 1;
  }
}

/** , ; . – — ( end the phrase a bold label leads into. */
function isLeadStop(c: number): boolean {
  return c === 44 || c === 59 || c === 46 || c === 0x2013 || c === 0x2014 || c === 40;
}

/** Where the lead of a list item or paragraph ends: a leading bold or linked phrase, else the text before a colon or dash, else its first sentence. */
function findLeadEnd(text: string, start: number, end: number, sink: InlineSink, boldFrom: number, linkFrom: number, isListItem: boolean): { leadEnd: number; boldLead: boolean } {
  let spanEnd = -1;
  let boldLead = false;
  for (let k = boldFrom; k < sink.bold.length; k++) {
    const b = sink.bold[k];
    if (b.start <= start + 1) {
      spanEnd = b.end;
      boldLead = true;
    }
    break;
  }
  for (let k = linkFrom; k < sink.links.length && spanEnd < 0; k++) {
    const l = sink.links[k];
    if (l.start <= start + 1) spanEnd = l.end;
    break;
  }
  if (spanEnd > 0) {
    let e = spanEnd;
    while (e < end && (text.charCodeAt(e) === 58 || text.charCodeAt(e) === 46)) e++;
    // A bold label ("**Best overall:** De'Longhi Magnifica Evo, ...") leads into the option it labels: its first phrase joins the lead.
    if (text.charCodeAt(e - 1) === 58) {
      const limit = Math.min(end, e + 60);
      let p = e;
      while (p < limit && !isLeadStop(text.charCodeAt(p))) p++;
      e = p;
    }
    return { leadEnd: Math.min(e, end), boldLead };
  }
  if (!isListItem) return { leadEnd: start, boldLead: false };
  const limit = Math.min(end, start + 80);
  for (let p = start; p < limit; p++) {
    const ch = text.charCodeAt(p);
    if (ch === 58) return { leadEnd: p + 1, boldLead: false };
    if ((ch === 0x2013 || ch === 0x2014 || ch === 45) && text.charCodeAt(p - 1) === 32 && text.charCodeAt(p + 1) === 32) return { leadEnd: p, boldLead: false };
  }
  const sentenceLimit = Math.min(end, start + 150);
  for (let p = start; p < sentenceLimit; p++) {
    const ch = text.charCodeAt(p);
    if ((ch === 46 || ch === 33 || ch === 63) && (p + 1 >= end || text.charCodeAt(p + 1) === 32)) return { leadEnd: p + 1, boldLead: false };
  }
  return { leadEnd: sentenceLimit, boldLead: false };
}

function isWholeLineBold(text: string, start: number, end: number, sink: InlineSink, boldFrom: number): boolean {
  let e = end;
  while (e > start && (text.charCodeAt(e - 1) === 58 || text.charCodeAt(e - 1) === 32)) e--;
  if (e <= start) return false;
  for (let k = boldFrom; k < sink.bold.length; k++) {
    const b = sink.bold[k];
    if (b.start <= start && b.end >= e) return true;
  }
  return false;
}

/** Renders a markdown answer into visible text with its line structure. Linear in the length of the answer. */
export function renderMarkdown(src: string): RenderedAnswer {
  const out = new PlainTextBuilder();
  const sink: InlineSink = { out, bold: [], links: [], urls: [], footnotes: [], boldStart: -1, specialFrom: -1, nextSpecial: -1, httpFrom: -1, nextHttp: -1 };
  const blocks: Block[] = [];
  const pending: PendingBlock[] = [];
  const lines = splitLines(src);
  let inFence = false;

  for (let li = 0; li < lines.length; li++) {
    const { start: ls, end: le } = lines[li];
    if (li > 0) out.pushChar('\n', ls - 1);
    const blockStart = out.length;
    const boldFrom = sink.bold.length;
    const linkFrom = sink.links.length;
    sink.boldStart = -1;
    const shape = classifyLine(src, ls, le);
    let kind: BlockKind;
    let level = 0;
    let leadEnd = blockStart;
    const boldLead = false;

    if (shape.kind === 'fence') {
      inFence = !inFence;
      pending.push({ kind: 'blank', level: 0, start: blockStart, end: blockStart, leadEnd: blockStart, boldLead: false, boldFrom, linkFrom });
      continue;
    }
    if (inFence) {
      let e = le;
      if (src.charCodeAt(e - 1) === 13) e--;
      out.pushRange(src, ls, e);
      pending.push({ kind: 'code', level: 0, start: blockStart, end: out.length, leadEnd: blockStart, boldLead: false, boldFrom, linkFrom });
      continue;
    }
    switch (shape.kind) {
      case 'blank':
      case 'rule':
      case 'tableDelimiter':
        kind = shape.kind === 'tableDelimiter' ? 'tableDelimiter' : 'blank';
        break;
      case 'heading':
        kind = 'heading';
        level = shape.level;
        renderInline(src, shape.contentStart, shape.contentEnd, sink);
        leadEnd = out.length;
        break;
      case 'table': {
        const next = lines[li + 1];
        kind = next !== undefined && classifyLine(src, next.start, next.end).kind === 'tableDelimiter' ? 'tableHeader' : 'tableRow';
        let p = ls;
        while (p < le && src.charCodeAt(p) !== 124) p++;
        p++;
        let cell = 0;
        while (p < le) {
          let q = p;
          while (q < le && !(src.charCodeAt(q) === 124 && src.charCodeAt(q - 1) !== 92)) q++;
          let cs = p;
          let ce = q;
          while (cs < ce && (src.charCodeAt(cs) === 32 || src.charCodeAt(cs) === 9)) cs++;
          while (ce > cs && (src.charCodeAt(ce - 1) === 32 || src.charCodeAt(ce - 1) === 9 || src.charCodeAt(ce - 1) === 13)) ce--;
          if (q >= le && cs >= ce) break; // trailing pipe
          if (cell > 0) out.pushChar(' | ', p - 1);
          sink.boldStart = -1;
          renderInline(src, cs, ce, sink);
          if (sink.boldStart >= 0) sink.bold.push({ start: sink.boldStart, end: out.length });
          sink.boldStart = -1;
          if (cell === 0) leadEnd = out.length;
          cell++;
          p = q + 1;
        }
        break;
      }
      case 'listItem': {
        kind = 'listItem';
        level = shape.indent;
        let e = le;
        if (src.charCodeAt(e - 1) === 13) e--;
        renderInline(src, shape.contentStart, e, sink);
        break;
      }
      case 'paragraph': {
        kind = 'paragraph';
        let e = le;
        if (src.charCodeAt(e - 1) === 13) e--;
        renderInline(src, shape.contentStart, e, sink);
        break;
      }
    }
    if (sink.boldStart >= 0 && out.length > sink.boldStart) sink.bold.push({ start: sink.boldStart, end: out.length });
    sink.boldStart = -1;
    const blockEnd = out.length;
    pending.push({ kind, level, start: blockStart, end: blockEnd, leadEnd, boldLead, boldFrom, linkFrom });
  }
  const built = out.build();
  const text = built.text;
  for (const b of pending) {
    let { kind, leadEnd, boldLead } = b;
    if (kind === 'listItem' || kind === 'paragraph') {
      if (kind === 'paragraph' && isWholeLineBold(text, b.start, b.end, sink, b.boldFrom)) {
        kind = 'boldLine';
        leadEnd = b.end;
        boldLead = true;
      } else {
        const lead = findLeadEnd(text, b.start, b.end, sink, b.boldFrom, b.linkFrom, kind === 'listItem');
        leadEnd = lead.leadEnd;
        boldLead = lead.boldLead;
      }
    }
    blocks.push({ kind, level: b.level, start: b.start, end: b.end, leadEnd, boldLead });
  }
  return { text, sourceOffsets: built.offsets, blocks, bold: sink.bold, links: sink.links, urls: sink.urls, footnotes: sink.footnotes };
}
