import type { ComponentChildren } from 'preact';
import { html } from '../html';
import { Empty } from './states';

export interface Column<R> {
  label: string;
  /** Numbers are right-aligned. */
  numeric?: boolean;
  render: (row: R, index: number) => ComponentChildren;
}

/** A plain HTML table (rankings and every chart's data): a caption, header cells with scope. */
export function Table<R>({ caption, columns, rows, empty = 'No rows in this period.', keyOf, rowClass, hideCaption = false }: { caption: string; columns: Column<R>[]; rows: readonly R[]; empty?: string; keyOf?: (r: R, i: number) => string | number; rowClass?: (r: R) => string; hideCaption?: boolean }) {
  if (rows.length === 0) return html`<${Empty}>${empty}<//>`;
  // A wide table scrolls within its box, which a keyboard user reaches with Tab (and scrolls with the arrows).
  return html`<div class="table-wrap" tabindex="0" role="region" aria-label=${caption}><table>
    <caption class=${hideCaption ? 'visually-hidden' : ''}>${caption}</caption>
    <thead><tr>${columns.map((c) => html`<th scope="col" class=${c.numeric ? 'num' : ''}>${c.label}</th>`)}</tr></thead>
    <tbody>${rows.map((r, i) => html`<tr key=${keyOf ? keyOf(r, i) : i} class=${rowClass ? rowClass(r) : ''}>${columns.map((c) => html`<td class=${c.numeric ? 'num' : ''}>${c.render(r, i)}</td>`)}</tr>`)}</tbody>
  </table></div>`;
}
