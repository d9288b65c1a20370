import type { ProjectionContext } from '../projector';
import { upsertRows, type TableShape } from './upsert';

type Scalar = string | number | boolean | null;

/**
 * What a batch changes in a table of counters (every daily rollup keeps numerators and
 * denominators: answers and mentions, prompts and citations, visits and conversions…). A batch
 * adds signed deltas under a key (a cell); `flush` writes each cell once, adding its deltas to
 * the stored counters in one statement, and skips the cells whose deltas cancel out.
 *
 *   const deltas = new CounterDeltas(dailyMentionsShape, ['answers', 'mentions']);
 *   deltas.add({ organization_id, client_id, brand_id, day }, { answers: 1, mentions: mentioned ? 1 : 0 });
 *   await deltas.flush(context);
 */
export class CounterDeltas<Row extends object, C extends keyof Row & string> {
  private readonly cells = new Map<string, Row>();
  private readonly keyColumns: (keyof Row & string)[];

  constructor(
    private readonly shape: TableShape<Row>,
    private readonly counters: readonly C[],
  ) {
    const columns = Object.keys(shape.columns) as (keyof Row & string)[];
    this.keyColumns = columns.filter((c) => !(counters as readonly string[]).includes(c));
    for (const c of counters) if (!columns.includes(c)) throw new Error(`${shape.table}: counter ${c} is not a column`);
  }

  /** Adds `by` (signed, per counter; a counter left out is 0) to the cell named by `key`. */
  add(key: Omit<Row, C>, by: Partial<Record<C, number>>): void {
    const values = key as Record<string, Scalar>;
    const id = JSON.stringify(this.keyColumns.map((c) => values[c] ?? null));
    let cell = this.cells.get(id) as Record<string, Scalar> | undefined;
    if (!cell) {
      cell = {};
      for (const c of this.keyColumns) cell[c] = values[c] ?? null;
      for (const c of this.counters) cell[c] = 0;
      this.cells.set(id, cell as Row);
    }
    for (const [c, n] of Object.entries(by) as [C, number][]) {
      if (!Number.isFinite(n)) throw new Error(`${this.shape.table}: delta of ${c} is not a finite number`);
      cell[c] = (cell[c] as number) + n;
    }
  }

  /** The cells whose deltas do not all cancel out. */
  rows(): Row[] {
    return [...this.cells.values()].filter((row) => this.counters.some((c) => (row[c] as number) !== 0));
  }

  /** Writes the deltas (counters added to the stored ones; a new cell starts from them) and forgets them. */
  async flush(context: Pick<ProjectionContext, 'query' | 'table'>): Promise<void> {
    const rows = this.rows();
    this.cells.clear();
    await upsertRows(context, this.shape, rows, { kind: 'add', columns: this.counters });
  }
}
