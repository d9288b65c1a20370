import { useState } from 'preact/hooks';
import { html } from '../html';
import { api, ApiError } from '../api';
import { useApi } from '../use-api';
import { pathFor } from '../router';
import { count, dateTime, interval, money, pct, points, pValue, providerLabel, words } from '../format';
import { Card } from '../components/figure';
import { Empty, ErrorBox, Loading } from '../components/states';
import { ALLOWED_TRANSITIONS, type Status } from '../../../../libs/opportunities/src/domain/lifecycle';
import { SeverityBadge, StatusBadge, type Opportunity } from './opportunities';
import type { PageProps } from './page-props';

interface RateCounts {
  k: number;
  n: number;
  value: number | null;
  low: number | null;
  high: number | null;
}
interface TestFigures {
  name?: string;
  z?: number | null;
  pValue?: number | null;
  alpha?: number;
}
interface Example {
  runId: number;
  resultId: string;
  query: string;
  provider: string;
  askedAt: string;
}
interface HistoryEvent {
  position: number;
  type: string;
  data: Record<string, unknown>;
  actor: string | null;
  reason: string | null;
  recordedAt: string;
}

/** The detectors' metric names, as people say them. */
const METRICS: Record<string, string> = {
  top3Rate: 'Top-3 rate',
  mentionRate: 'Mention rate',
  citationRate: 'Citation rate',
  shareOfVoice: 'Share of voice',
  positiveRate: 'Positive share of labelled answers',
  negativeRate: 'Negative share of labelled answers',
  accuracy: 'Accuracy of claims',
  errorShare: 'Share of visits answered with an error',
  contradictionRate: 'Answers contradicting the brand’s facts',
  answersRepeatingClaim: 'Answers repeating the claim',
  flipRate: 'Rank flips between runs',
};

const obj = (v: unknown): Record<string, unknown> | null => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null);
const rateOf = (v: unknown): RateCounts | null => {
  const o = obj(v);
  return o && typeof o.n === 'number' ? (o as unknown as RateCounts) : null;
};
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

function RateLine({ label, rate }: { label: string; rate: RateCounts | null }) {
  if (!rate) return null;
  return html`<div class="rate-line"><dt>${label}</dt><dd><strong>${pct(rate.value)}</strong> <span class="meta">n = ${count(rate.n)}${rate.low !== null ? ` · ${interval(rate.low, rate.high)}` : ''}</span></dd></div>`;
}

function TestLine({ test }: { test: TestFigures | null }) {
  if (!test) return null;
  const significant = typeof test.pValue === 'number' && typeof test.alpha === 'number' && test.pValue < test.alpha;
  return html`<div class="rate-line"><dt>Test</dt><dd>${test.name ?? 'two-proportion z-test'}: ${typeof test.z === 'number' ? `z = ${test.z.toFixed(2)}, ` : ''}${pValue(test.pValue)}${typeof test.alpha === 'number' ? ` (α = ${test.alpha})` : ''} ${significant ? html`<strong class="badge sig">significant</strong>` : html`<span class="badge">not significant</span>`}</dd></div>`;
}

function Evidence({ o, brandId }: { o: Opportunity; brandId: number }) {
  const e = o.evidence;
  const scope = obj(e.scope);
  const windows = obj(e.windows);
  const examples = (Array.isArray(e.examples) ? e.examples : []) as Example[];
  const metric = str(e.metric);
  return html`<${Card} title="Evidence" id="evidence">
    ${o.description ? html`<p class="lead">${o.description}</p>` : null}
    <dl class="facts">
      ${metric ? html`<div class="rate-line"><dt>Metric</dt><dd>${METRICS[metric] ?? words(metric)}</dd></div>` : null}
      ${scope ? html`<div class="rate-line"><dt>Where</dt><dd>${str(scope.query) ? html`“${str(scope.query)}”` : 'all prompts'} on ${providerLabel(str(scope.provider))}</dd></div>` : null}
      <${RateLine} label=${`Before${obj(windows?.baseline) ? ` (${dateTime(str(obj(windows!.baseline)!.from))} – ${dateTime(str(obj(windows!.baseline)!.to))})` : ''}`} rate=${rateOf(e.before)} />
      <${RateLine} label=${`After${obj(windows?.recent) ? ` (${dateTime(str(obj(windows!.recent)!.from))} – ${dateTime(str(obj(windows!.recent)!.to))})` : ''}`} rate=${rateOf(e.after)} />
      <${TestLine} test=${obj(e.test) as TestFigures | null} />
    </dl>
    ${examples.length
      ? html`<h3>Example answers</h3><ul class="examples">${examples.map(
          (x) => html`<li><a href=${pathFor(brandId, 'answers', null, { run: String(x.runId), result: x.resultId })}>${providerLabel(x.provider)} on “${x.query}”</a> <span class="meta">${dateTime(x.askedAt)}</span></li>`,
        )}</ul>`
      : null}
    ${!rateOf(e.before) && !examples.length
      ? html`<details><summary>Evidence as recorded</summary><pre class="json">${JSON.stringify(e, null, 2)}</pre></details>`
      : null}
  <//>`;
}

function Verification({ o }: { o: Opportunity }) {
  const v = o.verification;
  const d = obj(v.details);
  return html`<${Card} title="Verification" id="verification">
    <p data-figure="verification"><span class=${`badge verify-${v.status}`} data-value>${words(v.status)}</span> ${v.checkedAt ? html`<span class="meta">checked ${dateTime(v.checkedAt)}</span>` : null}</p>
    ${d
      ? html`${str(d.reason) ? html`<p>${str(d.reason)}</p>` : null}
          <dl class="facts">
            <${RateLine} label="At detection" rate=${rateOf(d.atDetection)} />
            <${RateLine} label="After the fix" rate=${rateOf(d.afterFix)} />
            <${TestLine} test=${obj(d.test) as TestFigures | null} />
            ${str(d.fixDeployedAt) ? html`<div class="rate-line"><dt>Fix deployed</dt><dd>${dateTime(str(d.fixDeployedAt))}</dd></div>` : null}
          </dl>`
      : v.status === 'pending' || v.status === 'not_started'
        ? html`<${Empty}>Not verified yet.<//>`
        : null}
  <//>`;
}

function Outcome({ o }: { o: Opportunity }) {
  const out = o.outcome;
  if (!out) return html`<${Card} title="Outcome" id="outcome"><${Empty}>${o.status === 'resolved' ? 'The outcome is not finalised yet (it is measured over a window after resolution).' : 'An outcome is measured once the opportunity is resolved.'}<//><//>`;
  const measured = obj(out.measured);
  const mention = obj(measured?.mentionRate);
  const citation = obj(measured?.citationRate);
  const num = (v: unknown) => (typeof v === 'number' ? v : null);
  return html`<${Card} title="Outcome" id="outcome">
    <div class="kpis compact">
      <div class="kpi" data-figure="outcomeRevenue"><span class="kpi-value" data-value>${money(num(out.revenue), str(out.currency))}</span><span class="kpi-label">revenue change</span></div>
      <div class="kpi"><span class="kpi-value">${count(num(out.conversions))}</span><span class="kpi-label">conversions change</span></div>
      <div class="kpi"><span class="kpi-value">${count(num(out.aiTrafficBefore))} → ${count(num(out.aiTrafficAfter))}</span><span class="kpi-label">AI sessions, before → after</span></div>
    </div>
    <dl class="facts">
      <${RateLine} label="Mention rate before" rate=${rateOf(mention?.before)} />
      <${RateLine} label="Mention rate after" rate=${rateOf(mention?.after)} />
      ${mention ? html`<div class="rate-line"><dt>Mention rate change</dt><dd>${points(num(mention.change))}</dd></div>` : null}
      <${RateLine} label="Citation rate before" rate=${rateOf(citation?.before)} />
      <${RateLine} label="Citation rate after" rate=${rateOf(citation?.after)} />
      ${str(out.finalizedAt) ? html`<div class="rate-line"><dt>Finalised</dt><dd>${dateTime(str(out.finalizedAt))}</dd></div>` : null}
    </dl>
  <//>`;
}

function describe(e: HistoryEvent): { title: string; at: string | null; detail: string | null } {
  const d = e.data;
  switch (e.type) {
    case 'opportunity.detected':
      return { title: 'Detected', at: str(d.detectedAt), detail: str(d.source) };
    case 'opportunity.transitioned':
      return { title: `${words(str(d.from))} → ${words(str(d.to))}`, at: str(d.at), detail: [str(d.owner) && str(d.to) === 'assigned' ? `owner ${str(d.owner)}` : null, str(d.reason)].filter(Boolean).join(' · ') || null };
    case 'opportunity.verification_recorded':
      return { title: `Verification ${words(str(d.status))}`, at: str(d.checkedAt), detail: str(obj(d.details)?.reason) };
    case 'opportunity.outcome_finalized':
      return { title: 'Outcome finalised', at: str(d.finalizedAt), detail: typeof d.revenue === 'number' ? `revenue ${money(d.revenue, str(d.currency))}` : null };
    default:
      return { title: words(e.type.replace(/^opportunity\./, '')), at: e.recordedAt, detail: e.reason };
  }
}

function Timeline({ events }: { events: HistoryEvent[] }) {
  return html`<${Card} title="History" id="history">
    <ol class="timeline">
      ${events.map((e) => {
        const d = describe(e);
        return html`<li key=${e.position}>
          <span class="when">${dateTime(d.at ?? e.recordedAt)}</span>
          <span class="what">${d.title}</span>
          <span class="who">${e.actor ?? 'unknown'}</span>
          ${d.detail ? html`<span class="detail">${d.detail}</span>` : null}
        </li>`;
      })}
    </ol>
  <//>`;
}

function Moves({ o, onMoved }: { o: Opportunity; onMoved: () => void }) {
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const [reason, setReason] = useState('');
  const [owner, setOwner] = useState(o.owner ?? '');
  const moves = ALLOWED_TRANSITIONS[o.status as Status] ?? [];
  const move = async (to: string) => {
    setBusy(to);
    setError(null);
    try {
      // expectedVersion: the move is decided on what this page shows; if the opportunity changed since, the API refuses it (409).
      await api.post(`/opportunities/${o.id}/transition`, { toStatus: to, expectedVersion: o.version, ...(reason.trim() ? { reason: reason.trim() } : {}), ...(to === 'assigned' && owner.trim() ? { owner: owner.trim() } : {}) });
      setReason('');
      onMoved();
    } catch (e) {
      setError(e instanceof ApiError ? e : new ApiError(0, 'CLIENT_ERROR', String(e), null, null));
    } finally {
      setBusy(null);
    }
  };
  return html`<${Card} title="Lifecycle" id="moves">
    ${moves.length === 0
      ? html`<${Empty}>${words(o.status)} is a final state: no move is allowed.<//>`
      : html`<div class="move-form">
          <label class="field"><span>Reason (kept in the history)</span><input type="text" value=${reason} maxlength="2000" onInput=${(e: Event) => setReason((e.target as HTMLInputElement).value)} /></label>
          ${moves.includes('assigned') ? html`<label class="field"><span>Owner (for “assigned”)</span><input type="text" value=${owner} maxlength="200" onInput=${(e: Event) => setOwner((e.target as HTMLInputElement).value)} /></label>` : null}
          <div class="buttons" role="group" aria-label="Allowed moves">
            ${moves.map((to) => html`<button type="button" class="button primary" data-move=${to} disabled=${busy !== null} onClick=${() => move(to)}>${busy === to ? 'Moving…' : `Move to ${words(to)}`}</button>`)}
          </div>
        </div>`}
    ${error
      ? html`<${ErrorBox} error=${error} title="The move was refused" />${error.status === 409 ? html`<p><button type="button" class="button" onClick=${onMoved}>Show the current state</button></p>` : null}`
      : null}
  <//>`;
}

export function OpportunityPage({ brand, id, scopes }: PageProps & { id: string }) {
  const valid = /^[1-9][0-9]{0,9}$/.test(id);
  const loaded = useApi<[{ data: Opportunity }, { data: HistoryEvent[] }]>([valid ? `/opportunities/${id}` : null, valid ? `/opportunities/${id}/events` : null]);
  const back = html`<p class="back"><a href=${pathFor(brand.id, 'opportunities')}>← All opportunities</a></p>`;
  if (!valid || (loaded.state === 'error' && loaded.error.status === 404) || (loaded.state === 'ok' && loaded.data[0].data.brandId !== brand.id))
    return html`${back}<section class="card not-found" role="alert"><h1>Not found</h1><p>No opportunity #${id} of ${brand.name} is visible to this key.</p></section>`;
  if (loaded.state === 'loading') return html`${back}<${Loading} what="the opportunity" />`;
  if (loaded.state === 'error') return html`${back}<${ErrorBox} error=${loaded.error} />`;
  const o = loaded.data[0].data;
  const events = loaded.data[1].data;
  const canWrite = scopes?.includes('write:opportunities') ?? false;
  return html`
    ${back}
    <header class="opp-head">
      <h1><span class="muted">#${o.id}</span> ${o.title}</h1>
      <p class="opp-meta">
        <${SeverityBadge} severity=${o.severity} /> <span data-figure="status"><${StatusBadge} status=${o.status} /></span>
        <span>${words(o.type)}</span>
        <span>owner: ${o.owner ?? 'unassigned'}</span>
        <span>SLA due ${dateTime(o.sla.dueAt)}${o.sla.breached ? html` <span class="badge warn">breached</span>` : null}</span>
        <span>detected ${dateTime(o.detectedAt)} by ${o.source}</span>
      </p>
    </header>
    <div class="grid two">
      <div class="stack">
        <${Evidence} o=${o} brandId=${brand.id} />
        <${Verification} o=${o} />
        <${Outcome} o=${o} />
      </div>
      <div class="stack">
        ${scopes === null ? null : canWrite ? html`<${Moves} o=${o} onMoved=${loaded.reload} />` : html`<p class="note">This key may read opportunities but not move them (it lacks <code>write:opportunities</code>).</p>`}
        <${Timeline} events=${events} />
      </div>
    </div>
  `;
}
