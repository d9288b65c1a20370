import { html } from '../html';
import { qs } from '../api';
import { useApi } from '../use-api';
import { pathFor, setParams } from '../router';
import { count, dateTime, money, words } from '../format';
import type { Page } from '../types';
import { Card } from '../components/figure';
import { Table } from '../components/table';
import { ErrorBox, Loading } from '../components/states';
import { Pager } from '../components/pager';
import { SEVERITIES, STATUSES, TYPES } from '../../../../libs/opportunities/src/domain/lifecycle';
import type { PageProps } from './page-props';

export interface Opportunity {
  id: number;
  brandId: number;
  type: string;
  severity: string;
  status: string;
  title: string;
  description: string | null;
  owner: string | null;
  source: string;
  evidence: Record<string, unknown>;
  verification: { status: string; checkedAt: string | null; details: Record<string, unknown> | null };
  outcome: Record<string, unknown> | null;
  detectedAt: string;
  updatedAt: string;
  resolvedAt: string | null;
  version: number;
  sla: { policy: string; dueAt: string; breached: boolean; breachedAt: string | null };
}

interface Kpis {
  data: { byStatus: Record<string, number>; bySeverity: Record<string, number>; open: number; total: number; slaBreached: number; awaitingVerification?: number };
}
interface Outcomes {
  data: { sinceDays: number; totals: { resolved: number; withOutcome: number; conversions: number | null; revenue: number | null } };
}

const PAGE_SIZE = 25;

export function SeverityBadge({ severity }: { severity: string }) {
  return html`<span class=${`badge sev-${severity}`}>${severity}</span>`;
}
export function StatusBadge({ status }: { status: string }) {
  return html`<span class=${`badge status-${status}`}>${words(status)}</span>`;
}

function Select({ label, name, options, value }: { label: string; name: string; options: readonly string[]; value: string | null }) {
  return html`<label class="control"><span>${label}</span>
    <select value=${value ?? ''} onChange=${(e: Event) => setParams({ [name]: (e.target as HTMLSelectElement).value || null, offset: null })}>
      <option value="">All</option>
      ${options.map((o) => html`<option value=${o}>${words(o)}</option>`)}
    </select>
  </label>`;
}

export function OpportunitiesPage({ route, brand }: PageProps) {
  const p = route.params;
  const status = p.get('status');
  const severity = p.get('severity');
  const type = p.get('type');
  const includeTerminal = p.get('includeTerminal') === 'true';
  const offset = Math.max(0, Number(p.get('offset')) || 0);
  const loaded = useApi<[Page<Opportunity>, Kpis, Outcomes]>([
    `/opportunities${qs({ brandId: brand.id, status, severity, type, includeTerminal: includeTerminal || (status !== null && ['resolved', 'dismissed'].includes(status)) ? true : null, sort: 'detectedAt', order: 'desc', limit: PAGE_SIZE, offset })}`,
    `/opportunities/_summary/kpis${qs({ brandId: brand.id })}`,
    `/outcomes/_summary${qs({ brandId: brand.id, sinceDays: 365 })}`,
  ]);
  const filters = html`<form class="filters" onSubmit=${(e: Event) => e.preventDefault()} aria-label="Filter opportunities">
    <${Select} label="Status" name="status" options=${STATUSES} value=${status} />
    <${Select} label="Severity" name="severity" options=${SEVERITIES} value=${severity} />
    <${Select} label="Type" name="type" options=${TYPES} value=${type} />
    <label class="check"><input type="checkbox" checked=${includeTerminal} onChange=${(e: Event) => setParams({ includeTerminal: (e.target as HTMLInputElement).checked ? 'true' : null, offset: null })} /> Include resolved and dismissed</label>
  </form>`;
  if (loaded.state === 'loading') return html`<h1>Opportunities</h1>${filters}<${Loading} what="opportunities" />`;
  if (loaded.state === 'error') return html`<h1>Opportunities</h1>${filters}<${ErrorBox} error=${loaded.error} />`;
  const [list, kpis, outcomes] = loaded.data;
  const k = kpis.data;
  const o = outcomes.data.totals;
  return html`
    <h1>Opportunities</h1>
    <section class="kpis" aria-label="Queue figures">
      <div class="kpi" data-figure="open"><span class="kpi-value" data-value>${count(k.open)}</span><span class="kpi-label">open</span></div>
      <div class="kpi"><span class="kpi-value">${count(k.bySeverity.critical ?? 0)}</span><span class="kpi-label">open critical</span></div>
      <div class="kpi"><span class="kpi-value">${count(k.slaBreached)}</span><span class="kpi-label">past their SLA</span></div>
      <div class="kpi"><span class="kpi-value">${count(k.byStatus.verifying ?? 0)}</span><span class="kpi-label">verifying</span></div>
      <div class="kpi"><span class="kpi-value">${count(o.resolved)}</span><span class="kpi-label">resolved (365 days)</span></div>
      <div class="kpi" data-figure="revenue"><span class="kpi-value" data-value>${o.withOutcome === 0 ? 'no data' : money(o.revenue)}</span><span class="kpi-label">revenue of ${count(o.withOutcome)} measured outcomes</span></div>
    </section>
    ${filters}
    <${Card} title=${`${count(list.meta.total)} opportunities${includeTerminal ? '' : ' (open)'}`} id="queue">
      <${Table}
        caption="Opportunities, newest first"
        hideCaption=${true}
        empty="No opportunity matches these filters."
        keyOf=${(r: Opportunity) => r.id}
        columns=${[
          { label: '#', numeric: true, render: (r: Opportunity) => r.id },
          { label: 'Opportunity', render: (r: Opportunity) => html`<a href=${pathFor(brand.id, 'opportunities', r.id, { from: p.get('from'), to: p.get('to') })}>${r.title}</a><span class="sub">${words(r.type)}</span>` },
          { label: 'Severity', render: (r: Opportunity) => html`<${SeverityBadge} severity=${r.severity} />` },
          { label: 'Status', render: (r: Opportunity) => html`<${StatusBadge} status=${r.status} />` },
          { label: 'Owner', render: (r: Opportunity) => r.owner ?? html`<span class="muted">unassigned</span>` },
          { label: 'SLA due', render: (r: Opportunity) => html`${dateTime(r.sla.dueAt)}${r.sla.breached ? html` <span class="badge warn">breached</span>` : null}` },
          { label: 'Detected', render: (r: Opportunity) => dateTime(r.detectedAt) },
        ]}
        rows=${list.data}
      />
      <${Pager} meta=${list.meta} />
    <//>
  `;
}
