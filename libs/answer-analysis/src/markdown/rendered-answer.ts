/** The visible text of a markdown answer, with the structure the analysis needs. */

export type BlockKind =
  | 'blank'
  | 'paragraph'
  | 'boldLine'
  | 'heading'
  | 'listItem'
  | 'tableHeader'
  | 'tableRow'
  | 'tableDelimiter'
  | 'code';

/** One source line of the answer, rendered. Offsets are in the visible text; end is exclusive. */
export interface Block {
  readonly kind: BlockKind;
  /** Heading level (1-6), list indent (leading spaces) or 0. */
  readonly level: number;
  readonly start: number;
  readonly end: number;
  /** End of the block's lead: heading text, first table cell, a leading bold or linked phrase, or the text before a colon or dash. Equals start when there is none. */
  readonly leadEnd: number;
  /** The block opens with a bold phrase (a label or a name). */
  readonly boldLead: boolean;
}

export interface Span {
  readonly start: number;
  readonly end: number;
}

/** Link text, with the link's target. */
export interface LinkSpan extends Span {
  readonly url: string;
}

export interface InlineUrl {
  readonly url: string;
  /** Offset in the visible text where the URL (or its link) stood. */
  readonly offset: number;
}

/** A footnote marker such as [3] (1-based number), by position in the visible text. */
export interface FootnoteRef {
  readonly n: number;
  readonly offset: number;
}

export interface RenderedAnswer {
  /** Visible text: one line per source line, markup, URLs and footnote markers removed. */
  readonly text: string;
  /** The index in the markdown source of each index of `text` (looked up per call; see PlainTextBuilder). */
  readonly sourceOffsets: { of(index: number): number };
  readonly blocks: readonly Block[];
  /** Bold spans, sorted by start. */
  readonly bold: readonly Span[];
  /** Link texts, sorted by start. */
  readonly links: readonly LinkSpan[];
  readonly urls: readonly InlineUrl[];
  readonly footnotes: readonly FootnoteRef[];
}
