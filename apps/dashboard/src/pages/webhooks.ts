import { useState } from 'preact/hooks';
import { html } from '../html';
import { api, ApiError, qs } from '../api';
import { useApi } from '../use-api';
import { pathFor } from '../router';
import { count, dateTime, words } from '../format';
import type { Page } from '../types';
import { Card } from '../components/figure';
import { Table } from '../components/table';
import { Empty, ErrorBox, Loading } from '../components/states';
import type { PageProps } from './page-props';

interface Webhook {
  id: number;
  url: string;
  events: string[];
  description: string | null;
  isActive: boolean;
  deactivatedReason: string | null;
  failingSince: string | null;
  createdAt: string;
}
interface Delivery {
  id: string;
  eventType: string;
  status: string;
  attemptCount: number;
  statusCode: number | null;
  durationMs: number | null;
  error: string | null;
  createdAt: string;
  lastAttemptAt: string | null;
  nextAttemptAt: string | null;
}

function Deliveries({ webhook, canWrite }: { webhook: Webhook; canWrite: boolean }) {
  const loaded = useApi<[{ data: Delivery[] }]>([`/webhooks/${webhook.id}/deliveries${qs({ limit: 50 })}`]);
  const [sent, setSent] = useState<string | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const test = async () => {
    setError(null);
    setSent(null);
    try {
      const r = await api.post<{ data?: { deliveryId?: string; id?: string } }>(`/webhooks/${webhook.id}/test`);
      setSent(`A signed webhook.test event was queued${r.data?.deliveryId ?? r.data?.id ? ` (delivery ${r.data?.deliveryId ?? r.data?.id})` : ''}.`);
      loaded.reload();
    } catch (e) {
      setError(e instanceof ApiError ? e : new ApiError(0, 'CLIENT_ERROR', String(e), null, null));
    }
  };
  return html`<${Card} title=${`Deliveries to ${webhook.url}`} id="deliveries" actions=${canWrite ? html`<button type="button" class="button" onClick=${test}>Send a test event</button>` : null}>
    ${sent ? html`<p class="notice" role="status">${sent}</p>` : null}
    ${error ? html`<${ErrorBox} error=${error} />` : null}
    ${loaded.state === 'loading'
      ? html`<${Loading} what="deliveries" />`
      : loaded.state === 'error'
        ? html`<${ErrorBox} error=${loaded.error} />`
        : html`<${Table}
            caption="Deliveries, newest first"
            hideCaption=${true}
            empty="Nothing was delivered to this subscription yet."
            keyOf=${(d: Delivery) => d.id}
            columns=${[
              { label: 'Created', render: (d: Delivery) => dateTime(d.createdAt) },
              { label: 'Event', render: (d: Delivery) => d.eventType },
              { label: 'Status', render: (d: Delivery) => html`<span class=${`badge delivery-${d.status}`}>${words(d.status)}</span>` },
              { label: 'Attempts', numeric: true, render: (d: Delivery) => count(d.attemptCount) },
              { label: 'Last answer', render: (d: Delivery) => (d.statusCode !== null ? `HTTP ${d.statusCode}` : d.error ?? '—') },
              { label: 'Next attempt', render: (d: Delivery) => (d.nextAttemptAt ? dateTime(d.nextAttemptAt) : '—') },
            ]}
            rows=${loaded.data[0].data}
          />`}
  <//>`;
}

export function WebhooksPage({ route, brand, scopes }: PageProps) {
  const selected = route.params.get('webhook');
  const loaded = useApi<[Page<Webhook>]>([`/webhooks${qs({ limit: 100, sort: 'createdAt', order: 'desc' })}`]);
  if (loaded.state === 'loading') return html`<h1>Webhooks</h1><${Loading} what="subscriptions" />`;
  if (loaded.state === 'error') return html`<h1>Webhooks</h1><${ErrorBox} error=${loaded.error} />`;
  const hooks = loaded.data[0].data;
  const chosen = hooks.find((w) => String(w.id) === selected) ?? null;
  return html`
    <h1>Webhooks</h1>
    <p class="footnote">Subscriptions of the organisation (every brand): signed deliveries of lifecycle events, retried on failure.</p>
    <${Card} title=${`Subscriptions (${count(loaded.data[0].meta.total)})`} id="subscriptions">
      ${hooks.length === 0
        ? html`<${Empty}>No webhook subscription yet: create one with <code>POST /api/v1/webhooks</code> (see <a href="/docs">the API reference</a>).<//>`
        : html`<${Table}
            caption="Webhook subscriptions"
            hideCaption=${true}
            keyOf=${(w: Webhook) => w.id}
            rowClass=${(w: Webhook) => (String(w.id) === selected ? 'selected' : '')}
            columns=${[
              { label: 'URL', render: (w: Webhook) => html`<a href=${pathFor(brand.id, 'webhooks', null, { from: route.params.get('from'), to: route.params.get('to'), webhook: String(w.id) })}>${w.url}</a>${w.description ? html`<span class="sub">${w.description}</span>` : null}` },
              { label: 'Events', render: (w: Webhook) => w.events.join(', ') },
              { label: 'State', render: (w: Webhook) => (w.isActive ? (w.failingSince ? html`<span class="badge warn">failing since ${dateTime(w.failingSince)}</span>` : html`<span class="badge ok">active</span>`) : html`<span class="badge">inactive${w.deactivatedReason ? `: ${w.deactivatedReason}` : ''}</span>`) },
              { label: 'Created', render: (w: Webhook) => dateTime(w.createdAt) },
            ]}
            rows=${hooks}
          />`}
    <//>
    ${selected && !chosen ? html`<p class="notice">Subscription ${selected} is not among this organisation's.</p>` : null}
    ${chosen ? html`<${Deliveries} webhook=${chosen} canWrite=${scopes?.includes('write:webhooks') ?? false} />` : null}
  `;
}
