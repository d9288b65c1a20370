import { useMemo } from 'preact/hooks';
import { html } from '../html';
import { qs } from '../api';
import { useApi } from '../use-api';
import { count, date, interval, pct } from '../format';
import type { Rate } from '../types';
import { Card } from '../components/figure';
import { Table } from '../components/table';
import { TimeChart, PALETTE } from '../components/chart';
import { Empty, ErrorBox, Loading } from '../components/states';
import type { PageProps } from './page-props';

interface Overview {
  data: { startDate: string; endDate: string; visits: number; verifiedVisits: number; spoofedVisits: number; unverifiableVisits: number; verifiedShare: Rate; uniqueBots: number; pagesCrawled: number; aiReferralVisits: number };
}
interface Bot {
  botName: string;
  operator: string;
  category: string;
  visits: number;
  verifiedVisits: number;
  spoofedVisits: number;
  unverifiableVisits: number;
  verifiedShare: Rate;
  verification: string;
  lastSeen: string;
}
interface PageRow {
  host: string;
  path: string;
  visits: number;
  bots: { botName: string; visits: number }[];
}
interface Trends {
  data: { days: { date: string; visits: number; verified: number; unverified: number; spoofed: number }[] };
}

export function BotsPage({ brand, period }: PageProps) {
  // The agent-analytics reads take a number of days ending today (the API's window).
  const days = Math.min(period.days, 90);
  const q = qs({ brandId: brand.id, days });
  const loaded = useApi<[Overview, { data: Bot[] }, { data: PageRow[] }, Trends]>([`/agent-analytics/overview${q}`, `/agent-analytics/bots${q}`, `/agent-analytics/pages${qs({ brandId: brand.id, days, limit: 20 })}`, `/agent-analytics/trends${q}`]);
  const chart = useMemo(() => {
    if (loaded.state !== 'ok') return null;
    const t = loaded.data[3].data.days;
    return {
      dates: t.map((d) => d.date),
      series: [
        { label: 'Verified', values: t.map((d) => d.verified), color: PALETTE[2] },
        { label: 'Unverified', values: t.map((d) => d.unverified), color: PALETTE[4] },
        { label: 'Spoofed', values: t.map((d) => d.spoofed), color: PALETTE[5] },
      ],
    };
  }, [loaded.state === 'ok' ? loaded.data[3] : null]);
  if (loaded.state === 'loading') return html`<h1>AI bots</h1><${Loading} what="bot visits" />`;
  if (loaded.state === 'error') return html`<h1>AI bots</h1><${ErrorBox} error=${loaded.error} />`;
  const [overview, bots, pages] = loaded.data;
  const o = overview.data;
  return html`
    <h1>AI bots</h1>
    <p class="footnote">Visits of AI crawlers and agents to ${brand.domain} over the last ${days} days (${date(o.startDate)} to ${date(o.endDate)}), from CDN logs, the API or the middleware. Verified: the operator's published addresses, reverse DNS or a Web Bot Auth signature confirm it; spoofed: it claims a bot whose checks it fails; unverified: the bot publishes no way to check.</p>
    <section class="kpis" aria-label="Bot visit figures">
      <div class="kpi" data-figure="botVisits"><span class="kpi-value" data-value>${count(o.visits)}</span><span class="kpi-label">bot visits</span></div>
      <div class="kpi"><span class="kpi-value">${count(o.verifiedVisits)}</span><span class="kpi-label">verified</span></div>
      <div class="kpi"><span class="kpi-value">${count(o.spoofedVisits)}</span><span class="kpi-label">spoofed</span></div>
      <div class="kpi"><span class="kpi-value">${count(o.unverifiableVisits)}</span><span class="kpi-label">unverified</span></div>
      <div class="kpi"><span class="kpi-value">${pct(o.verifiedShare.value)}</span><span class="kpi-label">verified share (n = ${count(o.verifiedShare.n)})</span></div>
      <div class="kpi"><span class="kpi-value">${count(o.uniqueBots)}</span><span class="kpi-label">bots</span></div>
      <div class="kpi"><span class="kpi-value">${count(o.pagesCrawled)}</span><span class="kpi-label">pages crawled</span></div>
      <div class="kpi"><span class="kpi-value">${count(o.aiReferralVisits)}</span><span class="kpi-label">visits referred by AI assistants</span></div>
    </section>
    <${Card} title="Visits by day" id="bot-trend">
      ${o.visits === 0 || !chart ? html`<${Empty}>No AI bot visits recorded for ${brand.domain} in this window.<//>` : html`<${TimeChart} title="Bot visits by day and verification" dates=${chart.dates} series=${chart.series} format=${(v: number | null) => (v === null ? 'no data' : count(v))} yMin=${0} />`}
    <//>
    <div class="grid two">
      <${Card} title="By bot" id="bots">
        <${Table}
          caption="Visits by bot and verification"
          hideCaption=${true}
          empty="No bot visited in this window."
          columns=${[
            { label: 'Bot', render: (b: Bot) => html`${b.botName}<span class="sub">${b.operator} · ${b.category}</span>` },
            { label: 'Visits', numeric: true, render: (b: Bot) => count(b.visits) },
            { label: 'Verified', numeric: true, render: (b: Bot) => count(b.verifiedVisits) },
            { label: 'Spoofed', numeric: true, render: (b: Bot) => count(b.spoofedVisits) },
            { label: 'Unverified', numeric: true, render: (b: Bot) => count(b.unverifiableVisits) },
            { label: 'Verified share', numeric: true, render: (b: Bot) => (b.unverifiableVisits === b.visits ? html`<span class="muted">cannot be checked</span>` : html`${pct(b.verifiedShare.value)}<span class="ci">${interval(b.verifiedShare.low, b.verifiedShare.high)}</span>`) },
          ]}
          rows=${bots.data}
        />
      <//>
      <${Card} title="Most crawled pages" id="pages">
        <${Table}
          caption="Most crawled pages"
          hideCaption=${true}
          empty="No page crawled in this window."
          columns=${[
            { label: 'Page', render: (p: PageRow) => html`<span class="url">${p.host}${p.path}</span>` },
            { label: 'Visits', numeric: true, render: (p: PageRow) => count(p.visits) },
            { label: 'Bots', render: (p: PageRow) => p.bots.map((b) => `${b.botName} ${count(b.visits)}`).join(', ') },
          ]}
          rows=${pages.data}
        />
      <//>
    </div>
  `;
}
