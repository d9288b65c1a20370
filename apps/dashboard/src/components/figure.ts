import type { ComponentChildren } from 'preact';
import { html } from '../html';
import { count, pValue } from '../format';
import type { Change } from '../stats';

/**
 * One headline figure: its value, n, interval, and its change against the previous period, marked
 * significant only when the two-proportion test says so (p < 0.05); otherwise shown plainly.
 */
export function Figure({ label, value, n, nLabel = 'n', ci, change, formatChange, previousLabel, testId }: { label: string; value: string; n: number | null; nLabel?: string; ci?: string; change?: Change; formatChange?: (d: number | null) => string; previousLabel?: string; testId?: string }) {
  const direction = !change || change.difference === null || change.difference === 0 ? 'flat' : change.difference > 0 ? 'up' : 'down';
  return html`<div class="figure" data-figure=${testId ?? label}>
    <h3 class="figure-label">${label}</h3>
    <p class="figure-value" data-value>${value}</p>
    <p class="figure-meta">${nLabel} = ${count(n)}${ci ? html` · ${ci}` : ''}</p>
    ${change && formatChange
      ? html`<p class=${`figure-change ${direction} ${change.significant ? 'significant' : 'plain'}`}>
          <span class="change-value">${change.difference === null ? 'no comparison: the previous period has no data' : formatChange(change.difference)}</span>
          ${change.difference !== null
            ? html` <span class="change-test">${change.significant ? html`<strong class="badge sig">significant</strong>` : html`<span class="badge">not significant</span>`} ${pValue(change.pValue)}</span>`
            : null}
          ${previousLabel ? html`<span class="change-against">vs ${previousLabel}</span>` : null}
        </p>`
      : null}
  </div>`;
}

export function Card({ title, children, actions, id }: { title: string; children: ComponentChildren; actions?: ComponentChildren; id?: string }) {
  return html`<section class="card" aria-labelledby=${id ? `${id}-title` : undefined}>
    <header class="card-head"><h2 id=${id ? `${id}-title` : undefined}>${title}</h2>${actions ? html`<div class="card-actions">${actions}</div>` : null}</header>
    ${children}
  </section>`;
}
