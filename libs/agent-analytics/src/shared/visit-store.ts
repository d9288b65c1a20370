import { Injectable } from '@nestjs/common';
import type { PoolClient } from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { DataSource } from 'typeorm';
import { utcDay, type DayKey } from '@libs/metrics';
import type { Visit } from '../domain/visit';

/** A classified bot visit as `bot_visits` keeps it (the request headers are used for verification, not kept). */
export interface BotVisitRow extends Omit<Visit, 'headers'> {
  organizationId: number;
  brandId: number | null;
  botName: string;
  category: string;
  verification: string;
  verifiedBy: string | null;
  robotsDisallowed: boolean | null;
}

/** A human visit sent by an AI assistant: only counted (no raw rows of people). */
export interface ReferralRow {
  organizationId: number;
  brandId: number | null;
  at: number;
  host: string;
  source: string;
  path: string;
}

export interface IdempotentBatch {
  organizationId: number;
  /** The credential that sent the batch (Principal.subject): a key is that credential's alone. */
  credential: string;
  key: string;
  bodyHash: string;
  response: unknown;
}

/** A stored batch answered again: its response, or a conflict when the key was used for another body. */
export type Replay = { replay: unknown } | { conflict: true };

const COPY_COLUMNS = 'organization_id, brand_id, visited_at, host, path, method, status, ip, user_agent, referer, bytes, duration_ms, bot_name, category, verification, verified_by, robots_disallowed';

/** A text field of COPY's text format: backslash, tab, newline and carriage return escaped; null as \N. */
function copyText(v: string | null): string {
  if (v === null) return '\\N';
  if (!/[\\\t\n\r]/.test(v)) return v;
  return v.replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n').replace(/\r/g, '\\r');
}
const copyNumber = (v: number | null) => (v === null ? '\\N' : String(v));

/** One row of bot_visits in COPY's text format. */
export function copyLine(r: BotVisitRow): string {
  return `${r.organizationId}\t${copyNumber(r.brandId)}\t${new Date(r.at).toISOString()}\t${copyText(r.host)}\t${copyText(r.path)}\t${copyText(r.method)}\t${r.status}\t${r.ip}\t${copyText(r.userAgent)}\t${copyText(r.referer)}\t${copyNumber(r.bytes)}\t${copyNumber(r.durationMs)}\t${copyText(r.botName)}\t${copyText(r.category)}\t${r.verification}\t${copyText(r.verifiedBy)}\t${r.robotsDisallowed === null ? '\\N' : r.robotsDisallowed ? 't' : 'f'}\n`;
}

export const partitionName = (day: DayKey) => `bot_visits_p${day.replace(/-/g, '')}`;

/**
 * Writes batches of visits: the raw bot visits with COPY into `bot_visits` (one partition per UTC
 * day, attached as days arrive), and the daily rollups (`agent_bot_daily`, `agent_page_daily`,
 * `ai_referral_daily`) summed in memory and added with one statement each, all in one
 * transaction; with an idempotency key, the key and the response in the same transaction, so a
 * re-sent batch counts once.
 */
@Injectable()
export class VisitStore {
  private readonly partitions = new Set<DayKey>();

  constructor(private readonly dataSource: DataSource) {}

  /** Makes the day partitions that do not exist yet (each attached once, under an advisory lock). */
  async ensurePartitions(days: Iterable<DayKey>): Promise<void> {
    for (const day of days) {
      if (this.partitions.has(day)) continue;
      const name = partitionName(day);
      const next = utcDay(Date.parse(`${day}T00:00:00Z`) + 86_400_000);
      await this.dataSource.transaction(async (m) => {
        await m.query(`SELECT pg_advisory_xact_lock(hashtext('bot_visits_partitions'))`);
        const [exists]: { r: string | null }[] = await m.query(`SELECT to_regclass($1)::text AS r`, [name]);
        if (exists.r) return;
        // Made apart and attached: ATTACH takes a lock that lets writes to the other days go on.
        await m.query(`CREATE TABLE ${name} (LIKE bot_visits INCLUDING DEFAULTS)`);
        await m.query(`ALTER TABLE ${name} ADD CONSTRAINT ${name}_day CHECK (visited_at >= '${day} 00:00:00+00' AND visited_at < '${next} 00:00:00+00')`);
        await m.query(`ALTER TABLE bot_visits ATTACH PARTITION ${name} FOR VALUES FROM ('${day} 00:00:00+00') TO ('${next} 00:00:00+00')`);
      });
      this.partitions.add(day);
    }
  }

  /** Stores one batch; with `idempotency`, a key seen before stores nothing and returns the first answer. */
  async write(bots: readonly BotVisitRow[], referrals: readonly ReferralRow[], idempotency?: IdempotentBatch): Promise<Replay | null> {
    await this.ensurePartitions(new Set(bots.map((b) => utcDay(b.at))));
    const qr = this.dataSource.createQueryRunner();
    await qr.connect();
    const client = (qr as unknown as { databaseConnection: PoolClient }).databaseConnection;
    try {
      await client.query('BEGIN');
      if (idempotency) {
        const inserted = await client.query(
          `INSERT INTO agent_ingest_batches (organization_id, credential, idempotency_key, body_hash, response) VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING RETURNING 1`,
          [idempotency.organizationId, idempotency.credential, idempotency.key, idempotency.bodyHash, JSON.stringify(idempotency.response)],
        );
        if (inserted.rowCount === 0) {
          await client.query('ROLLBACK');
          const { rows } = await client.query(`SELECT body_hash, response FROM agent_ingest_batches WHERE organization_id = $1 AND credential = $2 AND idempotency_key = $3`, [
            idempotency.organizationId,
            idempotency.credential,
            idempotency.key,
          ]);
          return rows[0]?.body_hash === idempotency.bodyHash ? { replay: rows[0].response } : { conflict: true };
        }
      }
      if (bots.length) await this.copy(client, bots);
      await this.addRollups(client, bots, referrals);
      await client.query('COMMIT');
      return null;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      await qr.release();
    }
  }

  private async copy(client: PoolClient, rows: readonly BotVisitRow[]): Promise<void> {
    const stream = client.query(copyFrom(`COPY bot_visits (${COPY_COLUMNS}) FROM STDIN`));
    await new Promise<void>((resolve, reject) => {
      stream.on('error', reject);
      stream.on('finish', resolve);
      const chunk: string[] = [];
      let size = 0;
      for (const r of rows) {
        const line = copyLine(r);
        chunk.push(line);
        size += line.length;
        if (size > 256 * 1024) {
          stream.write(chunk.join(''));
          chunk.length = 0;
          size = 0;
        }
      }
      stream.end(chunk.join(''));
    });
  }

  private async addRollups(client: PoolClient, bots: readonly BotVisitRow[], referrals: readonly ReferralRow[]): Promise<void> {
    const byBot = new Map<string, { org: number; brand: number; host: string; day: string; bot: string; category: string; verification: string; visits: number; errors: number; disallowed: number; last: number }>();
    const byPage = new Map<string, { org: number; brand: number; host: string; day: string; bot: string; path: string; status: number; visits: number; disallowed: number }>();
    for (const b of bots) {
      const day = utcDay(b.at);
      const brand = b.brandId ?? 0;
      const kb = `${b.organizationId}\u0000${brand}\u0000${b.host}\u0000${day}\u0000${b.botName}\u0000${b.verification}`;
      let cb = byBot.get(kb);
      if (!cb) byBot.set(kb, (cb = { org: b.organizationId, brand, host: b.host, day, bot: b.botName, category: b.category, verification: b.verification, visits: 0, errors: 0, disallowed: 0, last: 0 }));
      cb.visits++;
      if (b.status >= 400) cb.errors++;
      if (b.robotsDisallowed) cb.disallowed++;
      if (b.at > cb.last) cb.last = b.at;
      const path = pagePath(b.path);
      const kp = `${b.organizationId}\u0000${brand}\u0000${b.host}\u0000${day}\u0000${b.botName}\u0000${path}\u0000${b.status}`;
      let cp = byPage.get(kp);
      if (!cp) byPage.set(kp, (cp = { org: b.organizationId, brand, host: b.host, day, bot: b.botName, path, status: b.status, visits: 0, disallowed: 0 }));
      cp.visits++;
      if (b.robotsDisallowed) cp.disallowed++;
    }
    if (byBot.size) {
      const v = sortedValues(byBot);
      await client.query(
        `INSERT INTO agent_bot_daily (organization_id, brand_id, host, day, bot_name, category, verification, visits, error_visits, disallowed_visits, last_seen)
         SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::text[], $4::date[], $5::text[], $6::text[], $7::text[], $8::bigint[], $9::bigint[], $10::bigint[], $11::timestamptz[])
         ON CONFLICT (organization_id, day, brand_id, host, bot_name, verification) DO UPDATE SET
           visits = agent_bot_daily.visits + excluded.visits, error_visits = agent_bot_daily.error_visits + excluded.error_visits,
           disallowed_visits = agent_bot_daily.disallowed_visits + excluded.disallowed_visits, last_seen = greatest(agent_bot_daily.last_seen, excluded.last_seen)`,
        [v.map((x) => x.org), v.map((x) => x.brand), v.map((x) => x.host), v.map((x) => x.day), v.map((x) => x.bot), v.map((x) => x.category), v.map((x) => x.verification), v.map((x) => x.visits), v.map((x) => x.errors), v.map((x) => x.disallowed), v.map((x) => new Date(x.last).toISOString())],
      );
    }
    if (byPage.size) {
      const v = sortedValues(byPage);
      await client.query(
        `INSERT INTO agent_page_daily (organization_id, brand_id, host, day, bot_name, path, status, visits, disallowed_visits)
         SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::text[], $4::date[], $5::text[], $6::text[], $7::smallint[], $8::bigint[], $9::bigint[])
         ON CONFLICT (organization_id, day, brand_id, host, bot_name, path, status) DO UPDATE SET
           visits = agent_page_daily.visits + excluded.visits, disallowed_visits = agent_page_daily.disallowed_visits + excluded.disallowed_visits`,
        [v.map((x) => x.org), v.map((x) => x.brand), v.map((x) => x.host), v.map((x) => x.day), v.map((x) => x.bot), v.map((x) => x.path), v.map((x) => x.status), v.map((x) => x.visits), v.map((x) => x.disallowed)],
      );
    }
    if (byPage.size) {
      const totals = new Map<string, { org: number; brand: number; host: string; day: string; path: string; visits: number; errors: number; disallowed: number }>();
      for (const p of byPage.values()) {
        const k = `${p.org}\u0000${p.brand}\u0000${p.host}\u0000${p.day}\u0000${p.path}`;
        let t = totals.get(k);
        if (!t) totals.set(k, (t = { org: p.org, brand: p.brand, host: p.host, day: p.day, path: p.path, visits: 0, errors: 0, disallowed: 0 }));
        t.visits += p.visits;
        if (p.status >= 400) t.errors += p.visits;
        t.disallowed += p.disallowed;
      }
      const v = sortedValues(totals);
      await client.query(
        `INSERT INTO agent_page_totals_daily (organization_id, brand_id, host, day, path, visits, error_visits, disallowed_visits)
         SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::text[], $4::date[], $5::text[], $6::bigint[], $7::bigint[], $8::bigint[])
         ON CONFLICT (organization_id, day, brand_id, host, path) DO UPDATE SET visits = agent_page_totals_daily.visits + excluded.visits,
           error_visits = agent_page_totals_daily.error_visits + excluded.error_visits, disallowed_visits = agent_page_totals_daily.disallowed_visits + excluded.disallowed_visits`,
        [v.map((x) => x.org), v.map((x) => x.brand), v.map((x) => x.host), v.map((x) => x.day), v.map((x) => x.path), v.map((x) => x.visits), v.map((x) => x.errors), v.map((x) => x.disallowed)],
      );
    }
    if (referrals.length) {
      const byRef = new Map<string, { org: number; brand: number; host: string; day: string; source: string; path: string; visits: number }>();
      for (const r of referrals) {
        const day = utcDay(r.at);
        const brand = r.brandId ?? 0;
        const path = pagePath(r.path);
        const k = `${r.organizationId}\u0000${brand}\u0000${r.host}\u0000${day}\u0000${r.source}\u0000${path}`;
        const c = byRef.get(k);
        if (c) c.visits++;
        else byRef.set(k, { org: r.organizationId, brand, host: r.host, day, source: r.source, path, visits: 1 });
      }
      const v = sortedValues(byRef);
      await client.query(
        `INSERT INTO ai_referral_daily (organization_id, brand_id, host, day, source, path, visits)
         SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::text[], $4::date[], $5::text[], $6::text[], $7::bigint[])
         ON CONFLICT (organization_id, day, brand_id, host, source, path) DO UPDATE SET visits = ai_referral_daily.visits + excluded.visits`,
        [v.map((x) => x.org), v.map((x) => x.brand), v.map((x) => x.host), v.map((x) => x.day), v.map((x) => x.source), v.map((x) => x.path), v.map((x) => x.visits)],
      );
    }
  }
}

/** The page a request is for: its path without the query (rollups count pages, not URLs). */
export function pagePath(path: string): string {
  const q = path.search(/[?#]/);
  return (q < 0 ? path : path.slice(0, q)).slice(0, 2048) || '/';
}

/** A map's values in key order: concurrent batches then lock shared rollup rows in the same order (no deadlock). */
function sortedValues<V>(m: Map<string, V>): V[] {
  return [...m.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, v]) => v);
}
