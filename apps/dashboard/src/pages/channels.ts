import { useMemo } from 'preact/hooks';
import { html } from '../html';
import { qs } from '../api';
import { useApi } from '../use-api';
import { eachDayOf, periodQuery } from '../period';
import { count, money } from '../format';
import type { Page } from '../types';
import { Card } from '../components/figure';
import { Table } from '../components/table';
import { TimeChart, PALETTE } from '../components/chart';
import { Empty, ErrorBox, Loading } from '../components/states';
import type { PageProps } from './page-props';

interface MetricRow {
  date: string;
  channel: string;
  channelId: number;
  sessions: number | null;
  aiSessions: number | null;
  conversions: number | null;
  revenue: number | null;
}
interface Channel {
  id: number;
  kind: string;
  name: string;
  brandId: number | null;
  isActive: boolean;
}
interface Day {
  date: string;
  rows: number;
  sessions: number | null;
  aiSessions: number | null;
  conversions: number | null;
  revenue: number | null;
}

const add = (a: number | null, b: number | null) => (b === null ? a : (a ?? 0) + b);

export function ChannelsPage({ brand, period }: PageProps) {
  const loaded = useApi<[{ data: Channel[] } | null, Page<MetricRow>]>([
    brand.clientId === null ? null : `/channels${qs({ clientId: brand.clientId })}`,
    `/metrics${qs({ brandId: brand.id, ...periodQuery(period), limit: 200, sort: 'date', order: 'asc' })}`,
  ]);
  const days = useMemo(() => {
    if (loaded.state !== 'ok') return [] as Day[];
    const by = new Map<string, Day>();
    for (const d of eachDayOf(period)) by.set(d, { date: d, rows: 0, sessions: null, aiSessions: null, conversions: null, revenue: null });
    for (const r of loaded.data[1].data) {
      const d = by.get(r.date);
      if (!d) continue;
      d.rows++;
      d.sessions = add(d.sessions, r.sessions);
      d.aiSessions = add(d.aiSessions, r.aiSessions);
      d.conversions = add(d.conversions, r.conversions);
      d.revenue = add(d.revenue, r.revenue);
    }
    return [...by.values()];
  }, [loaded.state === 'ok' ? loaded.data[1] : null, period.from, period.to]);
  if (loaded.state === 'loading') return html`<h1>Channels</h1><${Loading} what="channel metrics" />`;
  if (loaded.state === 'error') return html`<h1>Channels</h1><${ErrorBox} error=${loaded.error} />`;
  const [channels, metrics] = loaded.data;
  const sum = (k: 'aiSessions' | 'conversions' | 'revenue' | 'sessions') => days.reduce<number | null>((a, d) => add(a, d[k]), null);
  const truncated = metrics.meta.hasMore;
  return html`
    <h1>Channels</h1>
    <section class="kpis" aria-label="Channel figures">
      <div class="kpi" data-figure="aiSessions"><span class="kpi-value" data-value>${count(sum('aiSessions'))}</span><span class="kpi-label">AI-referred sessions</span></div>
      <div class="kpi"><span class="kpi-value">${count(sum('sessions'))}</span><span class="kpi-label">all sessions</span></div>
      <div class="kpi"><span class="kpi-value">${count(sum('conversions'))}</span><span class="kpi-label">conversions</span></div>
      <div class="kpi"><span class="kpi-value">${money(sum('revenue'))}</span><span class="kpi-label">revenue</span></div>
    </section>
    ${truncated ? html`<p class="notice">More than 200 daily rows in this period: the figures cover the first 200 (shorten the period).</p>` : null}
    <${Card} title="AI-referred sessions by day" id="ai-sessions">
      ${metrics.data.length === 0 ? html`<${Empty}>No channel rows for ${brand.name} in this period.<//>` : html`<${TimeChart} title="AI-referred sessions and conversions by day" dates=${days.map((d) => d.date)} series=${[
        { label: 'AI sessions', values: days.map((d) => d.aiSessions), color: PALETTE[0] },
        { label: 'Conversions', values: days.map((d) => d.conversions), color: PALETTE[2] },
      ]} format=${(v: number | null) => (v === null ? 'no data' : count(v))} yMin=${0} />`}
    <//>
    <div class="grid two">
      <${Card} title="By day" id="days">
        <${Table}
          caption="Daily AI-referred sessions, conversions and revenue"
          hideCaption=${true}
          columns=${[
            { label: 'Date (UTC)', render: (d: Day) => d.date },
            { label: 'AI sessions', numeric: true, render: (d: Day) => count(d.aiSessions) },
            { label: 'Sessions', numeric: true, render: (d: Day) => count(d.sessions) },
            { label: 'Conversions', numeric: true, render: (d: Day) => count(d.conversions) },
            { label: 'Revenue', numeric: true, render: (d: Day) => money(d.revenue) },
          ]}
          rows=${[...days].reverse()}
        />
      <//>
      <${Card} title="Connected channels" id="channels">
        ${channels === null
          ? html`<${Empty}>This brand belongs to no client, so it has no channels.<//>`
          : html`<${Table}
              caption="Connected channels"
              hideCaption=${true}
              empty="No channel is connected for this brand's client."
              columns=${[
                { label: 'Channel', render: (c: Channel) => c.name },
                { label: 'Kind', render: (c: Channel) => c.kind },
                { label: 'Brand', render: (c: Channel) => (c.brandId === null ? 'all brands' : c.brandId === brand.id ? brand.name : `brand ${c.brandId}`) },
                { label: 'Active', render: (c: Channel) => (c.isActive ? 'yes' : 'no') },
              ]}
              rows=${channels.data}
            />`}
      <//>
    </div>
  `;
}
