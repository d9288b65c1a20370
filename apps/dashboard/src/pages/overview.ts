import { useMemo } from 'preact/hooks';
import { html } from '../html';
import { qs } from '../api';
import { useApi } from '../use-api';
import { marketOf, marketQuery, previous, periodQuery } from '../period';
import { setParams } from '../router';
import { count, interval, num, pct, points, providerLabel, signed, words, PROVIDER_LABELS } from '../format';
import { rateChange, sentimentChange, sumSeries } from '../stats';
import type { Entity, Mean, Point, Rate } from '../types';
import { Card, Figure } from '../components/figure';
import { Table } from '../components/table';
import { TimeChart, PALETTE, type Series } from '../components/chart';
import { Empty, ErrorBox, Loading } from '../components/states';
import type { PageProps } from './page-props';

interface BrandIndex {
  data: { date: string; startDate: string; endDate: string; value: number | null; components: { name: string; value: number | null; weight: number; effectiveWeight: number; contribution: number | null; n: number }[] };
}
interface ProviderFigures {
  provider: string;
  mentionRate: Rate;
  averagePosition: Mean;
  top3Rate: Rate;
}
interface Aeo {
  data: { overall: ProviderFigures; providers: ProviderFigures[] };
}
interface Geo {
  data: { overall: { citationRate: Rate; visibilityShare: Mean }; providers: { provider: string; citationRate: Rate; visibilityShare: Mean }[] };
}
interface Sentiment {
  labelled: number;
  netSentiment: Mean;
  positiveRate: Rate;
  negativeRate: Rate;
}
interface Trends {
  data: {
    overall: { mentionRate: Point[]; shareOfVoice: Point[] };
    providers: { provider: string; shareOfVoice: Point[] }[];
    shareOfVoiceByEntity?: { entity: Entity; shareOfVoice: Point[] }[];
  };
}

const COMPONENT_LABELS: Record<string, string> = {
  mentionRate: 'Mention rate',
  shareOfVoice: 'Share of voice',
  netSentiment: 'Net sentiment (0–100)',
  citationRate: 'Citation rate',
  visibilityShare: 'Visibility share (GEO)',
};

export function OverviewPage({ route, brand, period }: PageProps) {
  const provider = route.params.get('provider');
  const prev = previous(period);
  const market = marketQuery(marketOf(route.params));
  const filter = (p: typeof period) => qs({ brandId: brand.id, ...periodQuery(p), provider, ...market });
  const loaded = useApi<[BrandIndex, Aeo, Aeo, Geo, Geo, { data: Sentiment }, { data: Sentiment }, Trends, Trends, { data: (Sentiment & { provider: string })[] }]>([
    `/brand-index/latest${qs({ brandId: brand.id, ...market })}`,
    `/aeo/metrics${filter(period)}`,
    `/aeo/metrics${filter(prev)}`,
    `/geo/metrics${filter(period)}`,
    `/geo/metrics${filter(prev)}`,
    `/sentiment/summary${filter(period)}`,
    `/sentiment/summary${filter(prev)}`,
    `/visibility/trends${filter(period)}`,
    `/visibility/trends${filter(prev)}`,
    `/sentiment/by-provider${filter(period)}`,
  ]);
  const providerPicker = html`<label class="control inline">
    <span>Provider</span>
    <select value=${provider ?? ''} onChange=${(e: Event) => setParams({ provider: (e.target as HTMLSelectElement).value || null })}>
      <option value="">All providers</option>
      ${Object.entries(PROVIDER_LABELS).map(([id, label]) => html`<option value=${id}>${label}</option>`)}
    </select>
  </label>`;
  const chart = useMemo(() => {
    if (loaded.state !== 'ok') return null;
    const entities = loaded.data[7].data.shareOfVoiceByEntity ?? [];
    if (entities.length === 0) return null;
    const dates = entities[0].shareOfVoice.map((p) => p.date);
    const series: Series[] = entities.map((e, i) => ({
      label: e.entity.name,
      values: e.shareOfVoice.map((p) => p.value),
      low: e.shareOfVoice.map((p) => p.low),
      high: e.shareOfVoice.map((p) => p.high),
      n: e.shareOfVoice.map((p) => p.n),
      color: PALETTE[i % PALETTE.length],
    }));
    return { dates, series, empty: entities.every((e) => e.shareOfVoice.every((p) => p.n === 0)) };
  }, [loaded.state === 'ok' ? loaded.data[7] : null]);

  if (loaded.state === 'loading') return html`<h1>Overview</h1><${Loading} />`;
  if (loaded.state === 'error') return html`<h1>Overview</h1><${ErrorBox} error=${loaded.error} />`;
  const [index, aeo, aeoPrev, geo, geoPrev, sent, sentPrev, trends, trendsPrev, sentByProvider] = loaded.data;
  const prevLabel = `${prev.from} to ${prev.to}`;
  const sov = sumSeries(trends.data.overall.shareOfVoice);
  const sovPrev = sumSeries(trendsPrev.data.overall.shareOfVoice);
  const mention = aeo.data.overall.mentionRate;
  const citation = geo.data.overall.citationRate;
  const s = sent.data;
  const sentimentDiff = (d: number | null) => (d === null ? '' : `${signed(d)} points`);

  const providerRows = aeo.data.providers.map((p) => {
    const g = geo.data.providers.find((x) => x.provider === p.provider);
    const t = trends.data.providers.find((x) => x.provider === p.provider);
    const sp = sentByProvider.data.find((x) => x.provider === p.provider);
    return { provider: p.provider, aeo: p, citation: g?.citationRate ?? null, sov: t ? sumSeries(t.shareOfVoice) : null, sentiment: sp ?? null };
  });
  const idx = index.data;

  return html`
    <div class="page-head"><h1>Overview</h1>${providerPicker}</div>
    <section class="figures" aria-label="Headline figures">
      <${Figure} testId="mentionRate" label="Mention rate" value=${pct(mention.value)} n=${mention.n} nLabel="answers" ci=${interval(mention.low, mention.high)} change=${rateChange(aeoPrev.data.overall.mentionRate, mention)} formatChange=${points} previousLabel=${prevLabel} />
      <${Figure} testId="shareOfVoice" label="Share of voice" value=${pct(sov.value)} n=${sov.n} nLabel="mentions" ci=${interval(sov.low, sov.high)} change=${rateChange(sovPrev, sov)} formatChange=${points} previousLabel=${prevLabel} />
      <${Figure} testId="citationRate" label="Citation rate" value=${pct(citation.value)} n=${citation.n} nLabel="answers with citations" ci=${interval(citation.low, citation.high)} change=${rateChange(geoPrev.data.overall.citationRate, citation)} formatChange=${points} previousLabel=${prevLabel} />
      <${Figure} testId="netSentiment" label="Net sentiment" value=${s.netSentiment.value === null ? 'no data' : signed(s.netSentiment.value)} n=${s.labelled} nLabel="labelled answers" ci=${s.positiveRate.value === null ? '' : `${pct(s.positiveRate.value)} positive, ${pct(s.negativeRate.value)} negative`} change=${sentimentChange(sentPrev.data, s)} formatChange=${sentimentDiff} previousLabel=${prevLabel} />
    </section>
    <p class="footnote">Changes compare with the previous ${period.days} days (${prevLabel}). "Significant" means the two-proportion z-test gives ${'p < 0.05'} (net sentiment: the positive or the negative share moved significantly); any other change is shown as it is.</p>

    <div class="grid two">
      <${Card} title="Brand index" id="brand-index">
        ${idx.value === null
          ? html`<${Empty}>No brand index: no answers in its window.<//>`
          : html`<p class="big-number" data-figure="brandIndex"><span data-value>${num(idx.value)}</span><span class="unit"> / 100</span></p>
              <p class="meta">Latest, over ${idx.startDate} to ${idx.endDate} (its own 30-day window).</p>
              <${Table}
                caption="Brand index components"
                columns=${[
                  { label: 'Component', render: (c: BrandIndex['data']['components'][number]) => COMPONENT_LABELS[c.name] ?? words(c.name) },
                  { label: 'Value', numeric: true, render: (c: BrandIndex['data']['components'][number]) => num(c.value) },
                  { label: 'Weight', numeric: true, render: (c: BrandIndex['data']['components'][number]) => `${num(c.effectiveWeight, 0)}%` },
                  { label: 'Contribution', numeric: true, render: (c: BrandIndex['data']['components'][number]) => num(c.contribution) },
                  { label: 'n', numeric: true, render: (c: BrandIndex['data']['components'][number]) => count(c.n) },
                ]}
                rows=${idx.components}
              />`}
      <//>
      <${Card} title="Share of voice over time" id="sov-chart">
        ${chart === null || chart.empty
          ? html`<${Empty}>No mentions of tracked entities in this period.<//>`
          : html`<${TimeChart} title="Share of voice by day, brand and competitors" dates=${chart.dates} series=${chart.series} format=${pct} yMin=${0} />`}
      <//>
    </div>

    <${Card} title="By provider" id="providers">
      <${Table}
        caption=${`Figures by provider, ${period.from} to ${period.to}`}
        hideCaption=${true}
        columns=${[
          { label: 'Provider', render: (r: (typeof providerRows)[number]) => providerLabel(r.provider) },
          { label: 'Answers', numeric: true, render: (r: (typeof providerRows)[number]) => count(r.aeo.mentionRate.n) },
          { label: 'Mention rate', numeric: true, render: (r: (typeof providerRows)[number]) => html`${pct(r.aeo.mentionRate.value)}<span class="ci">${interval(r.aeo.mentionRate.low, r.aeo.mentionRate.high)}</span>` },
          { label: 'Share of voice', numeric: true, render: (r: (typeof providerRows)[number]) => html`${pct(r.sov?.value)}<span class="ci">n = ${count(r.sov?.n ?? 0)} mentions</span>` },
          { label: 'Citation rate', numeric: true, render: (r: (typeof providerRows)[number]) => html`${pct(r.citation?.value)}<span class="ci">n = ${count(r.citation?.n ?? 0)}</span>` },
          { label: 'Net sentiment', numeric: true, render: (r: (typeof providerRows)[number]) => html`${r.sentiment?.netSentiment.value == null ? 'no data' : signed(r.sentiment.netSentiment.value)}<span class="ci">n = ${count(r.sentiment?.labelled ?? 0)}</span>` },
          { label: 'Average position', numeric: true, render: (r: (typeof providerRows)[number]) => html`${num(r.aeo.averagePosition.value, 2)}<span class="ci">n = ${count(r.aeo.averagePosition.n)}</span>` },
        ]}
        rows=${providerRows}
        empty="No provider answered in this period."
      />
    <//>
  `;
}
