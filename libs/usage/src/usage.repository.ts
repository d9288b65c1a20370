import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { LATENCY_BUCKETS, addInto, emptyHistogram, percentile } from './domain/latency-histogram';
import type { UsageRow } from './domain/usage-counters';

export interface DailyCount {
  date: string;
  requests: number;
  errors: number;
}

export interface EndpointUsage {
  method: string;
  route: string;
  requests: number;
  errors: number;
  latencyMs: { p50: number | null; p95: number | null; p99: number | null };
}

export interface CredentialUsage {
  subject: string;
  keyId: number | null;
  requests: number;
  errors: number;
}

export interface UsageWindow {
  from: string;
  to: string;
  days: number;
}

/** The last `days` UTC days, today included. */
export function usageWindow(days: number, now = Date.now()): UsageWindow {
  const to = new Date(now).toISOString().slice(0, 10);
  const from = new Date(now - (days - 1) * 86_400_000).toISOString().slice(0, 10);
  return { from, to, days };
}

function series(window: UsageWindow, rows: { day: string; requests: string; errors: string }[]): DailyCount[] {
  const byDay = new Map(rows.map((r) => [r.day, r]));
  const out: DailyCount[] = [];
  const start = Date.parse(`${window.from}T00:00:00Z`);
  for (let i = 0; i < window.days; i++) {
    const date = new Date(start + i * 86_400_000).toISOString().slice(0, 10);
    const r = byDay.get(date);
    out.push({ date, requests: Number(r?.requests ?? 0), errors: Number(r?.errors ?? 0) });
  }
  return out;
}

/** Batched writes of usage counters, and the usage reports (always within one organisation). */
@Injectable()
export class UsageRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** One multi-row upsert; rows are sorted by key so concurrent flushes lock in one order. */
  async upsert(rows: UsageRow[]): Promise<void> {
    if (!rows.length) return;
    const sorted = [...rows].sort(
      (a, b) =>
        a.organizationId - b.organizationId ||
        cmp(a.day, b.day) ||
        cmp(a.subject, b.subject) ||
        cmp(a.route, b.route) ||
        cmp(a.method, b.method) ||
        cmp(a.statusClass, b.statusClass),
    );
    await this.dataSource.query(
      `INSERT INTO api_usage_daily AS u (organization_id, day, subject, key_id, method, route, status_class, requests, errors, latency_buckets)
       SELECT o, d, s, k, m, r, c, n, e, h::bigint[]
         FROM unnest($1::bigint[], $2::date[], $3::text[], $4::bigint[], $5::text[], $6::text[], $7::text[], $8::bigint[], $9::bigint[], $10::text[])
              AS x(o, d, s, k, m, r, c, n, e, h)
       ON CONFLICT (organization_id, day, subject, route, method, status_class) DO UPDATE SET
         requests = u.requests + EXCLUDED.requests,
         errors = u.errors + EXCLUDED.errors,
         latency_buckets = ARRAY(
           SELECT COALESCE(a, 0) + COALESCE(b, 0)
             FROM unnest(u.latency_buckets, EXCLUDED.latency_buckets) WITH ORDINALITY AS l(a, b, i) ORDER BY i)`,
      [
        sorted.map((r) => r.organizationId),
        sorted.map((r) => r.day),
        sorted.map((r) => r.subject),
        sorted.map((r) => r.keyId),
        sorted.map((r) => r.method),
        sorted.map((r) => r.route),
        sorted.map((r) => r.statusClass),
        sorted.map((r) => r.requests),
        sorted.map((r) => r.errors),
        sorted.map((r) => `{${r.latency.join(',')}}`),
      ],
    );
  }

  /** The organisation's usage, or only that of one credential (`subject`, e.g. `key:12`). */
  async organizationUsage(organizationId: number, window: UsageWindow, subject?: string) {
    const params: unknown[] = [organizationId, window.from, window.to];
    let where = `organization_id = $1 AND day BETWEEN $2::date AND $3::date`;
    if (subject !== undefined) {
      params.push(subject);
      where += ' AND subject = $4';
    }
    const [daily, endpoints, buckets, credentials] = await Promise.all([
      this.dataSource.query(
        `SELECT to_char(day, 'YYYY-MM-DD') AS day, sum(requests)::text AS requests, sum(errors)::text AS errors
           FROM api_usage_daily WHERE ${where} GROUP BY day`,
        params,
      ) as Promise<{ day: string; requests: string; errors: string }[]>,
      this.dataSource.query(
        `SELECT method, route, sum(requests)::text AS requests, sum(errors)::text AS errors
           FROM api_usage_daily WHERE ${where} GROUP BY method, route ORDER BY sum(requests) DESC, route, method`,
        params,
      ) as Promise<{ method: string; route: string; requests: string; errors: string }[]>,
      this.dataSource.query(
        `SELECT method, route, x.i::int AS i, sum(x.c)::text AS c
           FROM api_usage_daily CROSS JOIN LATERAL unnest(latency_buckets) WITH ORDINALITY AS x(c, i)
          WHERE ${where} GROUP BY method, route, x.i`,
        params,
      ) as Promise<{ method: string; route: string; i: number; c: string }[]>,
      this.dataSource.query(
        `SELECT subject, key_id, sum(requests)::text AS requests, sum(errors)::text AS errors
           FROM api_usage_daily WHERE ${where} GROUP BY subject, key_id ORDER BY sum(requests) DESC, subject`,
        params,
      ) as Promise<{ subject: string; key_id: string | null; requests: string; errors: string }[]>,
    ]);
    const histograms = new Map<string, number[]>();
    for (const b of buckets) {
      const id = `${b.method} ${b.route}`;
      const h = histograms.get(id) ?? emptyHistogram();
      if (b.i >= 1 && b.i <= LATENCY_BUCKETS) h[b.i - 1] += Number(b.c);
      histograms.set(id, h);
    }
    const dailySeries = series(window, daily);
    return {
      ...window,
      totals: dailySeries.reduce((t, d) => ({ requests: t.requests + d.requests, errors: t.errors + d.errors }), { requests: 0, errors: 0 }),
      daily: dailySeries,
      endpoints: endpoints.map((e): EndpointUsage => {
        const h = addInto(emptyHistogram(), histograms.get(`${e.method} ${e.route}`) ?? []);
        return {
          method: e.method,
          route: e.route,
          requests: Number(e.requests),
          errors: Number(e.errors),
          latencyMs: { p50: percentile(h, 50), p95: percentile(h, 95), p99: percentile(h, 99) },
        };
      }),
      credentials: credentials.map(
        (c): CredentialUsage => ({ subject: c.subject, keyId: c.key_id === null ? null : Number(c.key_id), requests: Number(c.requests), errors: Number(c.errors) }),
      ),
    };
  }

  async keyUsage(organizationId: number, keyId: number, window: UsageWindow) {
    const rows: { day: string; requests: string; errors: string }[] = await this.dataSource.query(
      `SELECT to_char(day, 'YYYY-MM-DD') AS day, sum(requests)::text AS requests, sum(errors)::text AS errors
         FROM api_usage_daily WHERE organization_id = $1 AND key_id = $2 AND day BETWEEN $3::date AND $4::date GROUP BY day`,
      [organizationId, keyId, window.from, window.to],
    );
    const daily = series(window, rows);
    return {
      keyId,
      ...window,
      totals: daily.reduce((t, d) => ({ requests: t.requests + d.requests, errors: t.errors + d.errors }), { requests: 0, errors: 0 }),
      daily,
    };
  }
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
