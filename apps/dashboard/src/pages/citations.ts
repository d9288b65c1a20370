import { html } from '../html';
import { qs } from '../api';
import { useApi } from '../use-api';
import { marketOf, marketQuery, periodQuery } from '../period';
import { count, dateTime, interval, num, pct, providerLabel, words } from '../format';
import type { Entity, Page, Rate } from '../types';
import { Card } from '../components/figure';
import { Table } from '../components/table';
import { ErrorBox, Loading } from '../components/states';
import { Pager } from '../components/pager';
import type { PageProps } from './page-props';

interface Owner {
  kind: 'brand' | 'competitor' | 'other';
  entity: Entity | null;
}
interface Domain {
  domain: string;
  consensusScore: number;
  citations: number;
  providerCoverage: number;
  providers: { provider: string; citations: number }[];
  owner: Owner;
  lastSeen: string;
}
interface Absence {
  domain: string;
  absenceScore: number;
  consensusScore: number;
  competitorDensity: number;
  competitorOnlyAnswers: number;
  answersCiting: number;
  owner: Owner;
  competitors: { entity: Entity; answers: number }[];
}
interface Gap {
  prompt: { id: number | null; query: string };
  answers: number;
  gapAnswers: number;
  gapRate: Rate;
  brandMentionRate: Rate;
  competitors: { entity: Entity; mentionRate: Rate; gapAnswers: number }[];
}
interface Discovery {
  question: string;
  occurrences: number;
  answers: number;
  providers: string[];
  lastSeen: string;
}
interface ChangeRow {
  id: string;
  changeType: string;
  severity: string;
  provider: string;
  prompt: { id: number | null; query: string };
  entity: Entity | null;
  domain: string | null;
  detectedAt: string;
}

const ownerLabel = (o: Owner) => (o.entity ? `${o.entity.name} (${o.kind})` : o.kind);

export function CitationsPage({ route, brand, period }: PageProps) {
  const offset = Math.max(0, Number(route.params.get('changesOffset')) || 0);
  const range = Math.min(365, period.days);
  const market = marketQuery(marketOf(route.params));
  const loaded = useApi<[{ data: { providersAsked: number; totalDomains: number; domains: Domain[] } }, { data: { minScore: number; domains: Absence[] } }, { data: Gap[] }, { data: Discovery[] }, Page<ChangeRow>]>([
    `/citation-sources/top${qs({ brandId: brand.id, range, limit: 25, ...market })}`,
    `/citation-sources/absences${qs({ brandId: brand.id, range, limit: 25, ...market })}`,
    `/prompts/gaps${qs({ brandId: brand.id, ...periodQuery(period), limit: 20 })}`,
    `/prompts/discoveries${qs({ brandId: brand.id, ...periodQuery(period), limit: 20 })}`,
    `/changes${qs({ brandId: brand.id, ...periodQuery(period), limit: 25, offset, sort: 'detectedAt', order: 'desc' })}`,
  ]);
  if (loaded.state === 'loading') return html`<h1>Citations and prompts</h1><${Loading} />`;
  if (loaded.state === 'error') return html`<h1>Citations and prompts</h1><${ErrorBox} error=${loaded.error} />`;
  const [top, absences, gaps, discoveries, changes] = loaded.data;
  return html`
    <h1>Citations and prompts</h1>
    <p class="footnote">Sources over the last ${range} days (consensus: recency-weighted citations × provider coverage, the brand's top domain = 100); prompts and changes over the period.</p>
    <div class="grid two">
      <${Card} title=${`Cited domains (${count(top.data.totalDomains)})`} id="domains">
        <${Table}
          caption="Cited domains by consensus score"
          hideCaption=${true}
          empty="No answer cited a source in this window."
          columns=${[
            { label: 'Domain', render: (d: Domain) => d.domain },
            { label: 'Owner', render: (d: Domain) => html`<span class=${`badge owner-${d.owner.kind}`}>${ownerLabel(d.owner)}</span>` },
            { label: 'Consensus', numeric: true, render: (d: Domain) => num(d.consensusScore) },
            { label: 'Citations', numeric: true, render: (d: Domain) => count(d.citations) },
            { label: 'Providers', numeric: true, render: (d: Domain) => `${d.providers.length} of ${top.data.providersAsked}` },
          ]}
          rows=${top.data.domains}
        />
      <//>
      <${Card} title="Absences: cited with competitors, not with you" id="absences">
        <${Table}
          caption="Absences by score"
          hideCaption=${true}
          empty=${`No domain scores ${absences.data.minScore} or more: competitors are not cited anywhere you are missing.`}
          columns=${[
            { label: 'Domain', render: (d: Absence) => d.domain },
            { label: 'Score', numeric: true, render: (d: Absence) => num(d.absenceScore) },
            { label: 'Competitor-only answers', numeric: true, render: (d: Absence) => `${count(d.competitorOnlyAnswers)} of ${count(d.answersCiting)}` },
            { label: 'Competitors', render: (d: Absence) => d.competitors.map((c) => c.entity.name).join(', ') },
          ]}
          rows=${absences.data.domains}
        />
      <//>
    </div>
    <div class="grid two">
      <${Card} title="Prompt gaps" id="gaps">
        <${Table}
          caption="Prompts where competitors are named and the brand is not"
          hideCaption=${true}
          empty="No prompt gap: wherever competitors are named, so is the brand."
          columns=${[
            { label: 'Prompt', render: (g: Gap) => g.prompt.query },
            { label: 'Gap rate', numeric: true, render: (g: Gap) => html`${pct(g.gapRate.value)}<span class="ci">n = ${count(g.gapRate.n)} · ${interval(g.gapRate.low, g.gapRate.high)}</span>` },
            { label: 'Brand mentioned', numeric: true, render: (g: Gap) => pct(g.brandMentionRate.value) },
            { label: 'Leading competitor', render: (g: Gap) => (g.competitors[0] ? `${g.competitors[0].entity.name} (${pct(g.competitors[0].mentionRate.value)})` : '—') },
          ]}
          rows=${gaps.data}
        />
      <//>
      <${Card} title="Discoveries" id="discoveries">
        <${Table}
          caption="Questions the answers raise that no tracked prompt asks"
          hideCaption=${true}
          empty="No new question found in this period's answers."
          columns=${[
            { label: 'Question', render: (d: Discovery) => d.question },
            { label: 'Seen', numeric: true, render: (d: Discovery) => `${count(d.occurrences)}×` },
            { label: 'Providers', render: (d: Discovery) => d.providers.map(providerLabel).join(', ') },
            { label: 'Last seen', render: (d: Discovery) => dateTime(d.lastSeen) },
          ]}
          rows=${discoveries.data}
        />
      <//>
    </div>
    <${Card} title=${`Changes (${count(changes.meta.total)})`} id="changes">
      <${Table}
        caption="Changes between consecutive answers, newest first"
        hideCaption=${true}
        empty="No change between consecutive answers in this period."
        keyOf=${(c: ChangeRow) => c.id}
        columns=${[
          { label: 'Detected', render: (c: ChangeRow) => dateTime(c.detectedAt) },
          { label: 'Change', render: (c: ChangeRow) => words(c.changeType) },
          { label: 'Severity', render: (c: ChangeRow) => html`<span class=${`badge sev-${c.severity}`}>${c.severity}</span>` },
          { label: 'Who / what', render: (c: ChangeRow) => c.entity?.name ?? c.domain ?? '—' },
          { label: 'Provider', render: (c: ChangeRow) => providerLabel(c.provider) },
          { label: 'Prompt', render: (c: ChangeRow) => c.prompt.query },
        ]}
        rows=${changes.data}
      />
      <${Pager} meta=${changes.meta} param="changesOffset" />
    <//>
  `;
}
