import { html } from '../html';
import type { ApiError } from '../api';

export function Loading({ what = 'figures' }: { what?: string }) {
  return html`<p class="state loading" role="status" aria-live="polite"><span class="spinner" aria-hidden="true"></span> Loading ${what}…</p>`;
}

/** Nothing to show: said in words, never as a 0. */
export function Empty({ children }: { children: unknown }) {
  return html`<p class="state empty">${children}</p>`;
}

/** An error of the API, as the API words it, with its status, code and request id. */
export function ErrorBox({ error, title = 'The API refused this' }: { error: ApiError; title?: string }) {
  return html`<div class="state error" role="alert">
    <strong>${title}</strong>
    <p class="error-message">${error.message}</p>
    <p class="meta">${error.status ? `HTTP ${error.status} · ` : ''}${error.code}${error.requestId ? html` · request id <code>${error.requestId}</code>` : ''}</p>
  </div>`;
}
