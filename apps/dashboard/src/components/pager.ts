import { html } from '../html';
import { setParams } from '../router';
import { count } from '../format';

/** Previous / next pages of a paginated list (the offset is in the URL). */
export function Pager({ meta, param = 'offset' }: { meta: { total: number; limit: number; offset: number; hasMore: boolean }; param?: string }) {
  if (meta.total <= meta.limit && meta.offset === 0) return null;
  const first = meta.total === 0 ? 0 : meta.offset + 1;
  const last = Math.min(meta.total, meta.offset + meta.limit);
  return html`<nav class="pager" aria-label="Pages of the list">
    <button type="button" class="button" disabled=${meta.offset === 0} onClick=${() => setParams({ [param]: meta.offset - meta.limit > 0 ? String(meta.offset - meta.limit) : null })}>← Previous</button>
    <span>${count(first)}–${count(last)} of ${count(meta.total)}</span>
    <button type="button" class="button" disabled=${!meta.hasMore} onClick=${() => setParams({ [param]: String(meta.offset + meta.limit) })}>Next →</button>
  </nav>`;
}
