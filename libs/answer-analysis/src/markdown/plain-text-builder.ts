/**
 * Accumulates visible text and remembers where it came from in the markdown source as a list of segments (visible
 * start → source start), one per copied range, not one entry per character: the offsets are only needed for the
 * handful of mentions an answer has, so they are looked up (binary search) instead of written for every character.
 */
export class PlainTextBuilder {
  private readonly parts: string[] = [];
  /**
   * Pairs (visible start, source start); a segment maps visible[i] → source start + (i − visible start). Plain arrays,
   * not typed arrays: a builder lives for one answer, and allocating a typed array costs more than the pushes.
   */
  private readonly segments: number[] = [];
  private segmentCount = 0;
  /** 1 for a segment whose characters all come from one source index (an inserted or decoded character). */
  private readonly fixed: number[] = [];
  length = 0;
  private last = 0;

  pushRange(source: string, from: number, to: number): void {
    if (to <= from) return;
    this.parts.push(from === 0 && to === source.length ? source : source.slice(from, to));
    this.addSegment(from, 0);
    this.length += to - from;
    this.last = source.charCodeAt(to - 1);
  }

  pushChar(ch: string, sourceIndex: number): void {
    this.parts.push(ch);
    this.addSegment(sourceIndex, 1);
    this.length += ch.length;
    this.last = ch.charCodeAt(ch.length - 1);
  }

  /** The code of the last character pushed, or 0 when none. */
  lastCode(): number {
    return this.length === 0 ? 0 : this.last;
  }

  build(): { text: string; offsets: SourceOffsets } {
    return { text: this.parts.join(''), offsets: new SourceOffsets(this.segments, this.fixed, this.segmentCount) };
  }

  private addSegment(sourceStart: number, fixed: number): void {
    this.segments.push(this.length, sourceStart);
    this.fixed.push(fixed);
    this.segmentCount++;
  }
}

/** Maps an index of the visible text to the index in the markdown source it came from. */
export class SourceOffsets {
  constructor(
    private readonly segments: readonly number[],
    private readonly fixed: readonly number[],
    private readonly count: number,
  ) {}

  /** Source index of visible index `i` (clamped to the text). */
  of(i: number): number {
    let lo = 0;
    let hi = this.count - 1;
    if (hi < 0) return 0;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.segments[2 * mid] <= i) lo = mid;
      else hi = mid - 1;
    }
    const base = this.segments[2 * lo + 1];
    return this.fixed[lo] === 1 ? base : base + Math.max(0, i - this.segments[2 * lo]);
  }
}
