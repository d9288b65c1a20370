import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { html } from '../html';
import { PAGES, navigate, pathFor, setParams, type PageId, type Route } from '../router';
import { PRESETS, lastDays, marketOf, periodOf, type Market, type Period } from '../period';
import { onRateLimitWait } from '../api';

export interface Brand {
  id: number;
  name: string;
  domain: string;
  clientId: number | null;
}

function BrandPicker({ brands, current, route }: { brands: Brand[]; current: string | null; route: Route }) {
  return html`<label class="control">
    <span>Brand</span>
    <select
      value=${current ?? ''}
      onChange=${(e: Event) => navigate(pathFor((e.target as HTMLSelectElement).value, route.page ?? 'overview', null, keepParams(route.params)))}
    >
      ${current !== null && !brands.some((b) => String(b.id) === current) ? html`<option value=${current}>(unknown brand ${current})</option>` : null}
      ${brands.map((b) => html`<option value=${String(b.id)}>${b.name}</option>`)}
    </select>
  </label>`;
}

/** Brand, period and market travel between pages; page-specific filters do not. */
function keepParams(params: URLSearchParams): URLSearchParams {
  const u = new URLSearchParams();
  for (const k of ['from', 'to', 'country', 'language']) {
    const v = params.get(k);
    if (v) u.set(k, v);
  }
  return u;
}

function PeriodPicker({ period }: { period: Period }) {
  const preset = PRESETS.find((d) => lastDays(d).from === period.from && lastDays(d).to === period.to);
  const setPeriod = (p: Period) => setParams({ from: p.from, to: p.to });
  return html`<fieldset class="period">
    <legend class="visually-hidden">Period</legend>
    <label class="control">
      <span>Period</span>
      <select value=${preset ? String(preset) : 'custom'} onChange=${(e: Event) => {
        const v = (e.target as HTMLSelectElement).value;
        if (v !== 'custom') setPeriod(lastDays(Number(v)));
      }}>
        ${PRESETS.map((d) => html`<option value=${String(d)}>Last ${d} days</option>`)}
        <option value="custom">Custom</option>
      </select>
    </label>
    <label class="control"><span>From</span><input type="date" value=${period.from} max=${period.to} onChange=${(e: Event) => {
      const v = (e.target as HTMLInputElement).value;
      if (v) setParams({ from: v, to: period.to });
    }} /></label>
    <label class="control"><span>To</span><input type="date" value=${period.to} min=${period.from} onChange=${(e: Event) => {
      const v = (e.target as HTMLInputElement).value;
      if (v) setParams({ from: period.from, to: v });
    }} /></label>
  </fieldset>`;
}

/** The market filter of the analytics reads: a country (ISO 3166-1 alpha-2) and a language (BCP 47), both optional, kept in the URL. */
function MarketPicker({ market }: { market: Market }) {
  const set = (k: 'country' | 'language') => (e: Event) => setParams({ [k]: (e.target as HTMLInputElement).value.trim() || null });
  return html`<fieldset class="period market">
    <legend class="visually-hidden">Market</legend>
    <label class="control"><span>Country</span><input type="text" name="country" size="3" maxlength="2" placeholder="All" value=${market.country ?? ''} onChange=${set('country')} /></label>
    <label class="control"><span>Language</span><input type="text" name="language" size="6" maxlength="35" placeholder="All" value=${market.language ?? ''} onChange=${set('language')} /></label>
  </fieldset>`;
}

function RateLimitNotice() {
  const [seconds, setSeconds] = useState<number | null>(null);
  useEffect(() => onRateLimitWait(setSeconds), []);
  if (seconds === null) return null;
  return html`<p class="notice" role="status">The API's rate limit was reached: waiting ${seconds} s (its Retry-After) before asking again.</p>`;
}

export function Layout({ route, brands, brandName, onSignOut, children }: { route: Route; brands: Brand[]; brandName: string | null; onSignOut: () => void; children: ComponentChildren }) {
  const period = periodOf(route.params);
  const market = marketOf(route.params);
  const active: PageId = route.page ?? 'overview';
  return html`<div class="shell">
    <a class="skip" href="#main">Skip to content</a>
    <header class="top">
      <div class="brandmark"><span class="logo" aria-hidden="true">◎</span> AI visibility</div>
      <div class="pickers">
        <${BrandPicker} brands=${brands} current=${route.brandId} route=${route} />
        <${PeriodPicker} period=${period} />
        <${MarketPicker} market=${market} />
      </div>
      <button type="button" class="button subtle" onClick=${onSignOut}>Sign out</button>
    </header>
    <nav class="tabs" aria-label="Pages">
      <ul>${PAGES.map((p) => html`<li><a href=${route.brandId ? pathFor(route.brandId, p.id, null, keepParams(route.params)) : '/app'} aria-current=${p.id === active ? 'page' : undefined}>${p.label}</a></li>`)}</ul>
    </nav>
    <${RateLimitNotice} />
    <main id="main" tabindex="-1">
      ${brandName ? html`<p class="context">${brandName} · ${period.from} to ${period.to} (${period.days} days, UTC)${market.country || market.language ? ` · market ${[market.country, market.language].filter(Boolean).join(', ')}` : ''}</p>` : null}
      ${children}
    </main>
  </div>`;
}
