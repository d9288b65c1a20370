import type { VNode } from 'preact';
import { html } from '../html';
import { qs } from '../api';
import { useApi } from '../use-api';
import { pathFor, setParams } from '../router';
import { count, dateTime, num, providerLabel, words } from '../format';
import type { Page } from '../types';
import { Card } from '../components/figure';
import { Table } from '../components/table';
import { Empty, ErrorBox, Loading } from '../components/states';
import { Pager } from '../components/pager';
import type { PageProps } from './page-props';

interface Run {
  id: number;
  trigger: string;
  status: string;
  queries: string[];
  providers: string[];
  answersExpected: number;
  answersRecorded: number;
  answersFailed: number;
  createdAt: string;
  completedAt: string | null;
}
interface AnswerEntity {
  kind: 'brand' | 'competitor';
  name: string;
  entityId: string;
  rank: number | null;
  mentions: number;
  mentioned: boolean;
  sentiment: string | null;
  sentimentScore: number | null;
}
interface Citation {
  url: string;
  domain: string;
  owner: 'brand' | 'competitor' | 'other';
  title: string | null;
  position: number;
}
interface Result {
  id: string;
  runId: number;
  query: string;
  provider: string;
  model: string;
  status: string;
  answer: string | null;
  citations: Citation[];
  entities: AnswerEntity[];
  error: string | null;
  askedAt: string;
}

const RUNS = 20;
const RESULTS = 200;

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The answer's text with the tracked entities' names and the cited URLs and domains marked: the
 * brand, its competitors and citations each in their own style (and named for screen readers).
 */
function Highlighted({ text, entities, citations }: { text: string; entities: AnswerEntity[]; citations: Citation[] }) {
  const marks = new Map<string, { cls: string; label: string }>();
  for (const e of entities) if (e.mentioned) marks.set(e.name.toLowerCase(), { cls: e.kind === 'brand' ? 'mark-brand' : 'mark-competitor', label: e.kind });
  for (const c of citations) {
    marks.set(c.url.toLowerCase(), { cls: `mark-cite cite-${c.owner}`, label: `citation (${c.owner})` });
    marks.set(c.domain.toLowerCase(), { cls: `mark-cite cite-${c.owner}`, label: `cited domain (${c.owner})` });
  }
  const terms = [...marks.keys()].filter(Boolean).sort((a, b) => b.length - a.length);
  if (terms.length === 0) return html`<div class="answer-text">${text}</div>`;
  const re = new RegExp(`(${terms.map(escape).join('|')})`, 'gi');
  const parts: (string | VNode)[] = [];
  let last = 0;
  for (const m of text.matchAll(re)) {
    const at = m.index ?? 0;
    if (at > last) parts.push(text.slice(last, at));
    const mark = marks.get(m[0].toLowerCase())!;
    parts.push(html`<mark class=${mark.cls} title=${mark.label}>${m[0]}</mark>` as VNode);
    last = at + m[0].length;
  }
  parts.push(text.slice(last));
  return html`<div class="answer-text">${parts}</div>`;
}

function OneAnswer({ r }: { r: Result }) {
  const entities = [...r.entities].sort((a, b) => (a.rank ?? 99) - (b.rank ?? 99));
  return html`<${Card} title=${`${providerLabel(r.provider)} on “${r.query}”`} id="answer">
    <p class="meta">Asked ${dateTime(r.askedAt)} · model ${r.model} · ${words(r.status)}</p>
    ${r.answer ? html`<${Highlighted} text=${r.answer} entities=${r.entities} citations=${r.citations} />` : html`<${Empty}>${r.error ?? 'No answer text was recorded.'}<//>`}
    <p class="legend-text"><mark class="mark-brand">brand</mark> <mark class="mark-competitor">competitor</mark> <mark class="mark-cite cite-brand">brand's citation</mark> <mark class="mark-cite cite-other">other citation</mark></p>
    <div class="grid two">
      <${Table}
        caption="Mentions, rank and sentiment"
        empty="No tracked entity is mentioned."
        columns=${[
          { label: 'Entity', render: (e: AnswerEntity) => html`${e.name} <span class="muted">${e.kind}</span>` },
          { label: 'Rank', numeric: true, render: (e: AnswerEntity) => (e.rank === null ? 'unranked' : String(e.rank)) },
          { label: 'Mentions', numeric: true, render: (e: AnswerEntity) => count(e.mentions) },
          { label: 'Sentiment', render: (e: AnswerEntity) => (e.sentiment ? html`<span class=${`badge sent-${e.sentiment}`}>${e.sentiment}</span> ${e.sentimentScore === null ? '' : num(e.sentimentScore, 2)}` : html`<span class="muted">not mentioned</span>`) },
        ]}
        rows=${entities}
      />
      <${Table}
        caption="Citations"
        empty="The answer cites nothing."
        columns=${[
          { label: '#', numeric: true, render: (c: Citation) => c.position },
          { label: 'URL', render: (c: Citation) => html`<span class="url">${c.url}</span>` },
          { label: 'Owner', render: (c: Citation) => html`<span class=${`badge owner-${c.owner}`}>${c.owner}</span>` },
        ]}
        rows=${r.citations}
      />
    </div>
  <//>`;
}

function RunResults({ brandId, runId, selected, provider }: { brandId: number; runId: string; selected: string | null; provider: string | null }) {
  const loaded = useApi<[Page<Result>]>([`/analysis-runs/${runId}/results${qs({ limit: RESULTS })}`]);
  if (loaded.state === 'loading') return html`<${Loading} what="the run's answers" />`;
  if (loaded.state === 'error') return html`<${ErrorBox} error=${loaded.error} />`;
  const all = loaded.data[0].data;
  const rows = provider ? all.filter((r) => r.provider === provider) : all;
  const chosen = selected ? all.find((r) => r.id === selected) : null;
  const brandOf = (r: Result) => r.entities.find((e) => e.kind === 'brand');
  return html`
    ${selected && !chosen ? html`<p class="notice">Answer ${selected} is not in run ${runId}.</p>` : null}
    ${chosen ? html`<${OneAnswer} r=${chosen} />` : null}
    <${Card} title=${`Run ${runId}: ${count(rows.length)} answers`} id="results">
      <${Table}
        caption="The run's answers"
        hideCaption=${true}
        keyOf=${(r: Result) => r.id}
        rowClass=${(r: Result) => (r.id === selected ? 'selected' : '')}
        columns=${[
          { label: 'Provider', render: (r: Result) => providerLabel(r.provider) },
          { label: 'Prompt', render: (r: Result) => html`<a href=${pathFor(brandId, 'answers', null, new URLSearchParams({ ...Object.fromEntries(new URLSearchParams(location.search)), run: runId, result: r.id }))} aria-current=${r.id === selected ? 'true' : undefined}>${r.query}</a>` },
          { label: 'Brand mentioned', render: (r: Result) => (brandOf(r)?.mentioned ? 'yes' : 'no') },
          { label: 'Rank', numeric: true, render: (r: Result) => (brandOf(r)?.rank ?? '—') },
          { label: 'Sentiment', render: (r: Result) => brandOf(r)?.sentiment ?? '—' },
          { label: 'Citations', numeric: true, render: (r: Result) => r.citations.length },
        ]}
        rows=${rows}
        empty="No answers in this run."
      />
    <//>`;
}

export function AnswersPage({ route, brand }: PageProps) {
  const runId = route.params.get('run');
  const result = route.params.get('result');
  const provider = route.params.get('provider');
  const offset = Math.max(0, Number(route.params.get('runsOffset')) || 0);
  const runs = useApi<[Page<Run>]>([`/analysis-runs${qs({ brandId: brand.id, limit: RUNS, offset, sort: 'createdAt', order: 'desc' })}`]);
  const validRun = runId !== null && /^[1-9][0-9]{0,9}$/.test(runId);
  return html`
    <div class="page-head"><h1>Answers</h1>
      <label class="control inline"><span>Provider</span>
        <select value=${provider ?? ''} onChange=${(e: Event) => setParams({ provider: (e.target as HTMLSelectElement).value || null })}>
          <option value="">All providers</option>
          ${['chatgpt', 'claude', 'gemini', 'perplexity'].map((p) => html`<option value=${p}>${providerLabel(p)}</option>`)}
        </select>
      </label>
    </div>
    <div class="grid sidebar">
      <${Card} title="Runs" id="runs">
        ${runs.state === 'loading'
          ? html`<${Loading} what="runs" />`
          : runs.state === 'error'
            ? html`<${ErrorBox} error=${runs.error} />`
            : html`<${Table}
                  caption="Analysis runs, newest first"
                  hideCaption=${true}
                  empty="No analysis run for this brand yet."
                  keyOf=${(r: Run) => r.id}
                  rowClass=${(r: Run) => (String(r.id) === runId ? 'selected' : '')}
                  columns=${[
                    { label: 'Run', render: (r: Run) => html`<a href=${pathFor(brand.id, 'answers', null, { from: route.params.get('from'), to: route.params.get('to'), provider, run: String(r.id), runsOffset: route.params.get('runsOffset') })} aria-current=${String(r.id) === runId ? 'true' : undefined}>#${r.id}</a>` },
                    { label: 'Created', render: (r: Run) => dateTime(r.createdAt) },
                    { label: 'Answers', numeric: true, render: (r: Run) => `${count(r.answersRecorded)} / ${count(r.answersExpected)}` },
                    { label: 'Status', render: (r: Run) => words(r.status) },
                  ]}
                  rows=${runs.data[0].data}
                /><${Pager} meta=${runs.data[0].meta} param="runsOffset" />`}
      <//>
      <div class="stack">
        ${validRun ? html`<${RunResults} brandId=${brand.id} runId=${runId} selected=${result} provider=${provider} />` : html`<${Card} title="Pick a run"><${Empty}>Choose a run to read its answers, with mentions, rank, sentiment and citations.<//><//>`}
      </div>
    </div>`;
}
