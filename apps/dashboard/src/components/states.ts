import { html } from '../html';
import type { ApiError } from '../api';

export function Loading({ what = 'figures' }: { what?: string }) {
  return html`<p class="state loading" role="status" aria-live="polite"><span class="spinner" aria-hidden="true"></span> Loading ${what}…</p>`;
}

/** Nothing to show: said in words, never as a 0. */
export function Empty({ children }: { children: unknown }) {
  return html`<p class="state empty">${children}</p>`;
}

/** A validation error's fields (DESIGN §8: `details.fields`, each offending field and why). */
function fieldsOf(error: ApiError): { field: string; message: string }[] {
  const fields = error.details?.fields;
  return Array.isArray(fields) ? fields.filter((f): f is { field: string; message: string } => !!f && typeof f.field === 'string' && typeof f.message === 'string') : [];
}

/** An error of the API, as the API words it, with its status, code and request id. */
export function ErrorBox({ error, title = 'The API refused this' }: { error: ApiError; title?: string }) {
  return html`<div class="state error" role="alert">
    <strong>${title}</strong>
    <p class="error-message">${error.message}</p>
    ${fieldsOf(error).length ? html`<ul class="error-fields">${fieldsOf(error).map((f) => html`<li><code>${f.field}</code>: ${f.message}</li>`)}</ul>` : null}
    <p class="meta">${error.status ? `HTTP ${error.status} · ` : ''}${error.code}${error.requestId ? html` · request id <code>${error.requestId}</code>` : ''}</p>
  </div>`;
}
