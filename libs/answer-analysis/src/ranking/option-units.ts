import { Block } from '../markdown/rendered-answer';

/** One option of a list-like structure: a list item, a table row, a headed section, a bold-led paragraph. Offsets in the visible text. */
export interface OptionUnit {
  readonly start: number;
  readonly end: number;
  readonly leadEnd: number;
  /**
   * Units of the same structure share a key: a number, not a string, so that grouping needs no string building or
   * hashing: heading sections of level 1-6 have their level, bold-line sections 0, and each list, table or run of
   * bold-led paragraphs its own number from 7 on.
   */
  readonly structure: number;
}

const BOLD_LINE_STRUCTURE = 0;

/** Finds the candidate option units of an answer from its line structure. Linear in the number of lines. */
export function findOptionUnits(blocks: readonly Block[], textLength: number): OptionUnit[] {
  const units: OptionUnit[] = [];
  let structureNo = BOLD_LINE_STRUCTURE + 6;
  const n = blocks.length;
  // Headings and bold-only lines: a section runs to the next heading of the same or a higher level.
  const openHeadings: { level: number; start: number; leadEnd: number }[] = [];
  let openBoldLine: { start: number; leadEnd: number } | null = null;
  const closeHeadingsFrom = (level: number, at: number): void => {
    while (openHeadings.length > 0 && openHeadings[openHeadings.length - 1].level >= level) {
      const h = openHeadings.pop();
      if (h !== undefined) units.push({ start: h.start, end: at, leadEnd: h.leadEnd, structure: h.level });
    }
  };
  const closeBoldLine = (at: number): void => {
    if (openBoldLine !== null) units.push({ start: openBoldLine.start, end: at, leadEnd: openBoldLine.leadEnd, structure: BOLD_LINE_STRUCTURE });
    openBoldLine = null;
  };
  let i = 0;
  while (i < n) {
    const b = blocks[i];
    if (b.kind === 'heading') {
      closeBoldLine(b.start);
      closeHeadingsFrom(b.level, b.start);
      openHeadings.push({ level: b.level, start: b.start, leadEnd: b.leadEnd });
      i++;
      continue;
    }
    if (b.kind === 'boldLine') {
      closeBoldLine(b.start);
      openBoldLine = { start: b.start, leadEnd: b.leadEnd };
      i++;
      continue;
    }
    if (b.kind === 'listItem') {
      // A list: list items separated only by blank lines; top-level items are those with the smallest indent.
      let j = i;
      let minIndent = Number.MAX_SAFE_INTEGER;
      let lastItem = i;
      while (j < n && (blocks[j].kind === 'listItem' || blocks[j].kind === 'blank')) {
        if (blocks[j].kind === 'listItem') {
          minIndent = Math.min(minIndent, blocks[j].level);
          lastItem = j;
        }
        j++;
      }
      const listNo = ++structureNo;
      let current: Block | null = null;
      let currentEnd = 0;
      for (let k = i; k <= lastItem; k++) {
        const item = blocks[k];
        if (item.kind !== 'listItem') continue;
        if (item.level <= minIndent + 1) {
          if (current !== null) units.push({ start: current.start, end: currentEnd, leadEnd: current.leadEnd, structure: listNo });
          current = item;
        }
        currentEnd = item.end;
      }
      if (current !== null) units.push({ start: current.start, end: currentEnd, leadEnd: current.leadEnd, structure: listNo });
      i = lastItem + 1;
      continue;
    }
    if (b.kind === 'tableRow' || b.kind === 'tableHeader' || b.kind === 'tableDelimiter') {
      const tableNo = ++structureNo;
      while (i < n && (blocks[i].kind === 'tableRow' || blocks[i].kind === 'tableHeader' || blocks[i].kind === 'tableDelimiter')) {
        const row = blocks[i];
        if (row.kind === 'tableRow') units.push({ start: row.start, end: row.end, leadEnd: row.leadEnd, structure: tableNo });
        i++;
      }
      continue;
    }
    if (b.kind === 'paragraph' && b.boldLead) {
      const paraNo = ++structureNo;
      while (i < n && ((blocks[i].kind === 'paragraph' && blocks[i].boldLead) || blocks[i].kind === 'blank')) {
        const p = blocks[i];
        if (p.kind === 'paragraph') units.push({ start: p.start, end: p.end, leadEnd: p.leadEnd, structure: paraNo });
        i++;
      }
      continue;
    }
    i++;
  }
  closeBoldLine(textLength);
  closeHeadingsFrom(0, textLength);
  units.sort((a, b) => a.start - b.start || b.end - a.end);
  return units;
}
