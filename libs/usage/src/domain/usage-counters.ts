import { LATENCY_BUCKETS, bucketOf } from './latency-histogram';

/** One row of usage: a subject's requests to one route with one method and status class on one UTC day. */
export interface UsageRow {
  organizationId: number;
  subject: string;
  keyId: number | null;
  day: string;
  method: string;
  route: string;
  statusClass: string;
  requests: number;
  errors: number;
  latency: number[];
}

export function statusClassOf(status: number): string {
  return status >= 500 ? '5xx' : status >= 400 ? '4xx' : status >= 300 ? '3xx' : '2xx';
}

/**
 * In-memory usage counters between two flushes. `record` is the hot path: a map lookup and a few
 * increments; `drain` hands every row over and starts afresh.
 */
export class UsageCounters {
  private rows = new Map<string, UsageRow>();

  get size(): number {
    return this.rows.size;
  }

  record(
    who: { organizationId: number; subject: string; keyId: number | null },
    day: string,
    method: string,
    route: string,
    status: number,
    latencyMs: number,
  ): void {
    const statusClass = statusClassOf(status);
    const id = `${day} ${who.subject} ${method} ${statusClass} ${route}`;
    let row = this.rows.get(id);
    if (row === undefined) {
      row = { organizationId: who.organizationId, subject: who.subject, keyId: who.keyId, day, method, route, statusClass, requests: 0, errors: 0, latency: new Array<number>(LATENCY_BUCKETS).fill(0) };
      this.rows.set(id, row);
    }
    row.requests++;
    if (status >= 400) row.errors++;
    row.latency[bucketOf(latencyMs)]++;
  }

  drain(): UsageRow[] {
    const rows = [...this.rows.values()];
    this.rows = new Map();
    return rows;
  }

  /** Puts rows back (a flush that failed), adding to what arrived meanwhile. */
  restore(rows: UsageRow[]): void {
    for (const r of rows) {
      const id = `${r.day} ${r.subject} ${r.method} ${r.statusClass} ${r.route}`;
      const row = this.rows.get(id);
      if (!row) {
        this.rows.set(id, r);
        continue;
      }
      row.requests += r.requests;
      row.errors += r.errors;
      for (let i = 0; i < row.latency.length; i++) row.latency[i] += r.latency[i] ?? 0;
    }
  }
}
