import { Injectable } from '@nestjs/common';
import { once } from 'node:events';
import type { PoolClient } from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { DataSource } from 'typeorm';
import { Semaphore } from 'async-mutex';
import { InjectConfig } from '@libs/config';
import { utcDay, type DayKey } from '@libs/metrics';
import { AGENT_ANALYTICS_CONFIG, type AgentAnalyticsConfig } from '../agent-analytics.config';
import { ownString, type Visit } from '../domain/visit';
import { BinaryCopyWriter } from './copy-binary';
import { LoopTurns } from './loop-turns';

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

export const BOT_VISIT_COLUMNS = 'organization_id, brand_id, visited_at, host, path, method, status, ip, user_agent, referer, bytes, duration_ms, bot_name, category, verification, verified_by, robots_disallowed';
const FIELDS = 17;
const DAY_MS = 86_400_000;

/** One row of bot_visits in COPY's binary format (`COPY bot_visits (BOT_VISIT_COLUMNS) FROM STDIN (FORMAT binary)`). */
export function encodeBotVisit(w: BinaryCopyWriter, r: BotVisitRow): void {
  // Room for every text at 3 bytes a UTF-16 unit, and the fixed-size values.
  w.row(FIELDS, 3 * (r.host.length + r.path.length + r.method.length + r.userAgent.length + (r.referer?.length ?? 0) + r.botName.length + r.category.length + r.verification.length + (r.verifiedBy?.length ?? 0)) + 80);
  w.int8(r.organizationId);
  w.int8(r.brandId);
  w.timestamptz(r.at);
  w.text(r.host);
  w.text(r.path);
  w.text(r.method);
  w.int2(r.status);
  w.inet(r.ip);
  w.text(r.userAgent);
  w.text(r.referer);
  w.int8(r.bytes);
  w.int4(r.durationMs);
  w.text(r.botName);
  w.text(r.category);
  w.text(r.verification);
  w.text(r.verifiedBy);
  w.bool(r.robotsDisallowed);
}

/** Rows of bot_visits as one binary COPY's data (header, rows, trailer), in chunks. */
export function binaryCopyData(rows: Iterable<BotVisitRow>): Buffer[] {
  const w = new BinaryCopyWriter();
  const chunks: Buffer[] = [];
  w.header();
  for (const r of rows) {
    encodeBotVisit(w, r);
    if (w.length >= w.chunkSize) chunks.push(w.take());
  }
  w.trailer();
  chunks.push(w.take());
  return chunks;
}

export const partitionName = (day: DayKey) => `bot_visits_p${day.replace(/-/g, '')}`;

/**
 * Writes visits: the raw bot visits with COPY into `bot_visits` (one partition per UTC day,
 * attached as days arrive), and the daily rollups (`agent_bot_daily`, `agent_page_daily`,
 * `agent_page_totals_daily`, `ai_referral_daily`) summed as the rows pass and added with one
 * statement each, all in one transaction (`begin` → `VisitWrite` → `commit`); with an idempotency
 * key, the key and the response in the same transaction, so a re-sent batch counts once.
 *
 * Ingestion holds at most AGENT_INGEST_CONNECTIONS connections of the pool at once (write
 * transactions wait their turn here, not in the pool), so a flood of visits never takes the
 * connections other work and other organisations' reads need.
 */
@Injectable()
export class VisitStore {
  private readonly partitions = new Set<DayKey>();
  private readonly slots: Semaphore;

  constructor(
    private readonly dataSource: DataSource,
    @InjectConfig(AGENT_ANALYTICS_CONFIG) config: AgentAnalyticsConfig,
  ) {
    this.slots = new Semaphore(config.ingestConnections);
  }

  /** The days whose partitions are known to exist (attached and committed). */
  knownDays(): ReadonlySet<DayKey> {
    return this.partitions;
  }

  /** Makes the day partitions that do not exist yet (each attached once, under an advisory lock). */
  async ensurePartitions(days: Iterable<DayKey>): Promise<void> {
    for (const day of days) {
      if (this.partitions.has(day)) continue;
      const name = partitionName(day);
      const next = utcDay(Date.parse(`${day}T00:00:00Z`) + DAY_MS);
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

  /**
   * Opens a write transaction once an ingestion slot and a connection are free. With `idempotency`,
   * a key seen before opens nothing and returns the first answer (or a conflict).
   */
  async begin(idempotency?: IdempotentBatch): Promise<VisitWrite | Replay> {
    const [, releaseSlot] = await this.slots.acquire();
    let client: PoolClient | null = null;
    let release = async () => releaseSlot();
    try {
      const qr = this.dataSource.createQueryRunner();
      await qr.connect();
      release = async () => {
        try {
          await qr.release();
        } finally {
          releaseSlot();
        }
      };
      client = (qr as unknown as { databaseConnection: PoolClient }).databaseConnection;
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
          await release();
          return rows[0]?.body_hash === idempotency.bodyHash ? { replay: rows[0].response } : { conflict: true };
        }
      }
      return new VisitWrite(this, client, release);
    } catch (error) {
      await client?.query('ROLLBACK').catch(() => undefined);
      await release();
      throw error;
    }
  }

  /** Stores one batch in one transaction; with `idempotency`, a key seen before stores nothing and returns the first answer. */
  async write(bots: readonly BotVisitRow[], referrals: readonly ReferralRow[], idempotency?: IdempotentBatch): Promise<Replay | null> {
    // Every day's partition first: one transaction takes the whole batch (see VisitWrite.takes).
    await this.ensurePartitions(new Set(bots.map((b) => utcDay(b.at))));
    const write = await this.begin(idempotency);
    if (!(write instanceof VisitWrite)) return write;
    try {
      const turns = new LoopTurns();
      for (let i = 0; i < bots.length; i++) {
        // The socket takes megabytes without pushing back: a large batch is encoded in short turns
        // of the event loop, so the requests of others are served in between.
        const wait = write.addBot(bots[i]) ?? turns.due();
        if (wait) await wait;
      }
      for (const r of referrals) write.addReferral(r);
      await write.commit();
      return null;
    } catch (error) {
      await write.rollback();
      throw error;
    }
  }
}

/**
 * One write transaction of visits. Bot visits are encoded as they come (binary COPY) and streamed
 * to the server in 64 KiB chunks while the caller goes on: nothing of a row is held once encoded
 * but its share of the rollup sums. `addBot` returns a promise only when the caller must wait: the
 * server is behind (the connection's buffer is full: this is what holds a fast reader back) or its
 * first COPY begins (the day's partition made first).
 */
export class VisitWrite {
  private readonly sums = new RollupSums();
  private readonly w = new BinaryCopyWriter();
  private copy: ReturnType<typeof copyFrom> | null = null;
  private copyFailure: Error | null = null;
  /** The days the open COPY can take (their partitions existed when it began). */
  private copyDays = new Set<DayKey>();
  private lastDay = -1;
  private lastDayKey = '' as DayKey;
  /** A COPY has begun: the transaction holds a lock on bot_visits until it ends. */
  private holdsTable = false;
  private done = false;
  /** Bot visits added. */
  rows = 0;
  referrals = 0;

  constructor(
    private readonly store: VisitStore,
    private readonly client: PoolClient,
    private readonly release: () => Promise<void>,
  ) {}

  /**
   * Whether a bot visit of this time can be added. Once a COPY has begun, the transaction holds a
   * lock on bot_visits until it ends, and attaching a new day's partition then could wait for a
   * retention run (DETACH ... CONCURRENTLY) that waits for this very transaction: a visit of a day
   * whose partition did not exist when the COPY began needs the next transaction.
   */
  takes(at: number): boolean {
    return !this.holdsTable || this.copyDays.has(this.dayOf(at));
  }

  addBot(row: BotVisitRow): Promise<void> | undefined {
    const day = this.dayOf(row.at);
    if (!this.copy || !this.copyDays.has(day)) {
      if (!this.takes(row.at)) throw new Error(`the partition of ${day} is new and this transaction holds bot_visits: commit it first`);
      return this.openCopyFor(day).then(() => this.addBot(row));
    }
    encodeBotVisit(this.w, row);
    this.sums.addBot(row, day);
    this.rows++;
    if (this.w.length >= this.w.chunkSize) return this.send(this.w.take());
    return undefined;
  }

  addReferral(r: ReferralRow): void {
    this.sums.addReferral(r);
    this.referrals++;
  }

  /** The rollup rows summed so far (what the transaction holds in memory). */
  get sumRows(): number {
    return this.sums.rows;
  }

  /** Ends the COPY, adds the rollup sums, commits, and gives the connection back. */
  async commit(): Promise<void> {
    try {
      await this.endCopy();
      await this.sums.write(this.client);
      await this.client.query('COMMIT');
    } catch (error) {
      await this.rollback();
      throw error;
    }
    this.done = true;
    await this.release();
  }

  async rollback(): Promise<void> {
    if (this.done) return;
    this.done = true;
    this.copy?.destroy();
    await this.client.query('ROLLBACK').catch(() => undefined);
    await this.release();
  }

  private dayOf(at: number): DayKey {
    const dayNumber = Math.floor(at / DAY_MS);
    if (dayNumber !== this.lastDay) {
      this.lastDay = dayNumber;
      this.lastDayKey = utcDay(dayNumber * DAY_MS);
    }
    return this.lastDayKey;
  }

  /** Makes the day's partition (before the transaction holds bot_visits: see `takes`), and begins a COPY that can take it. */
  private async openCopyFor(day: DayKey): Promise<void> {
    await this.store.ensurePartitions([day]);
    this.holdsTable = true;
    // A partition attached by another transaction is seen by statements that begin after it committed.
    this.copyDays = new Set(this.store.knownDays());
    const copy = this.client.query(copyFrom(`COPY bot_visits (${BOT_VISIT_COLUMNS}) FROM STDIN (FORMAT binary)`));
    copy.on('error', (e: Error) => (this.copyFailure ??= e));
    this.copy = copy;
    this.w.header();
  }

  private async send(chunk: Buffer): Promise<void> {
    if (this.copyFailure) throw this.copyFailure;
    // events.once rejects if the COPY fails while the caller waits.
    if (!this.copy!.write(chunk)) await once(this.copy!, 'drain');
  }

  private async endCopy(): Promise<void> {
    const copy = this.copy;
    if (!copy) return;
    this.copy = null;
    this.w.trailer();
    const last = this.w.take();
    if (this.copyFailure) throw this.copyFailure;
    await new Promise<void>((resolve, reject) => {
      copy.once('finish', resolve);
      copy.once('error', reject);
      copy.end(last);
    });
    if (this.copyFailure) throw this.copyFailure;
  }
}

interface BotSum {
  org: number;
  brand: number;
  host: string;
  day: string;
  bot: string;
  category: string;
  verification: string;
  visits: number;
  errors: number;
  disallowed: number;
  last: number;
}
interface PageSum {
  org: number;
  brand: number;
  host: string;
  day: string;
  bot: string;
  path: string;
  status: number;
  visits: number;
  disallowed: number;
}
interface ReferralSum {
  org: number;
  brand: number;
  host: string;
  day: string;
  source: string;
  path: string;
  visits: number;
}
/** The sums of one organisation, brand, host and day (a log has few: the last one is kept at hand). */
interface Group {
  org: number;
  brand: number;
  host: string;
  day: string;
  /** By bot name, then verification. */
  bots: Map<string, Map<string, BotSum>>;
  /** By bot name, then page, then status. */
  pages: Map<string, Map<string, PageSum[]>>;
}

/**
 * The rollups of one transaction's visits, summed as they are added, written with one statement
 * per rollup table. Sums are found through maps of short keys (no key is built per visit), and
 * what a sum keeps of a visit (its host and page) are strings of their own (`ownString`): a view
 * of the text a visit was read from would keep all of that text.
 */
class RollupSums {
  private readonly groups = new Map<string, Group>();
  private last: Group | null = null;
  private readonly referrals = new Map<string, ReferralSum>();
  /** Rollup rows summed (bot, page and referral sums). */
  rows = 0;

  addBot(b: BotVisitRow, day: string): void {
    const brand = b.brandId ?? 0;
    let g = this.last;
    if (!g || g.host !== b.host || g.day !== day || g.brand !== brand || g.org !== b.organizationId) g = this.group(b.organizationId, brand, b.host, day);
    let byVerification = g.bots.get(b.botName);
    if (!byVerification) g.bots.set(b.botName, (byVerification = new Map()));
    let cb = byVerification.get(b.verification);
    if (!cb) {
      byVerification.set(b.verification, (cb = { org: g.org, brand, host: g.host, day, bot: b.botName, category: b.category, verification: b.verification, visits: 0, errors: 0, disallowed: 0, last: 0 }));
      this.rows++;
    }
    cb.visits++;
    if (b.status >= 400) cb.errors++;
    if (b.robotsDisallowed) cb.disallowed++;
    if (b.at > cb.last) cb.last = b.at;
    let byPage = g.pages.get(b.botName);
    if (!byPage) g.pages.set(b.botName, (byPage = new Map()));
    const path = pagePath(b.path);
    let byStatus = byPage.get(path);
    if (!byStatus) byPage.set(ownString(path), (byStatus = []));
    let cp: PageSum | undefined;
    for (const x of byStatus) if (x.status === b.status) cp = x;
    if (!cp) {
      byStatus.push((cp = { org: g.org, brand, host: g.host, day, bot: b.botName, path: ownString(path), status: b.status, visits: 0, disallowed: 0 }));
      this.rows++;
    }
    cp.visits++;
    if (b.robotsDisallowed) cp.disallowed++;
  }

  addReferral(r: ReferralRow): void {
    const day = utcDay(r.at);
    const brand = r.brandId ?? 0;
    const path = pagePath(r.path);
    const k = `${r.organizationId}\u0000${brand}\u0000${r.host}\u0000${day}\u0000${r.source}\u0000${path}`;
    const c = this.referrals.get(k);
    if (c) c.visits++;
    else {
      this.referrals.set(ownString(k), { org: r.organizationId, brand, host: ownString(r.host), day, source: r.source, path: ownString(path), visits: 1 });
      this.rows++;
    }
  }

  private group(org: number, brand: number, host: string, day: string): Group {
    const key = `${org}\u0000${brand}\u0000${host}\u0000${day}`;
    let g = this.groups.get(key);
    if (!g) this.groups.set(ownString(key), (g = { org, brand, host: ownString(host), day, bots: new Map(), pages: new Map() }));
    return (this.last = g);
  }

  /** The bot and page sums, each list in the order of its rollup's key (concurrent writers then lock shared rows in one order: no deadlock). */
  private sorted(): { bots: BotSum[]; pages: PageSum[] } {
    const bots: [string, BotSum][] = [];
    const pages: [string, PageSum][] = [];
    for (const g of this.groups.values()) {
      for (const byVerification of g.bots.values()) for (const b of byVerification.values()) bots.push([`${b.org}\u0000${b.brand}\u0000${b.host}\u0000${b.day}\u0000${b.bot}\u0000${b.verification}`, b]);
      for (const byPage of g.pages.values()) for (const byStatus of byPage.values()) for (const p of byStatus) pages.push([`${p.org}\u0000${p.brand}\u0000${p.host}\u0000${p.day}\u0000${p.bot}\u0000${p.path}\u0000${p.status}`, p]);
    }
    return { bots: sortedByKey(bots), pages: sortedByKey(pages) };
  }

  async write(client: PoolClient): Promise<void> {
    const { bots, pages } = this.sorted();
    if (bots.length) {
      const v = bots;
      await client.query(
        `INSERT INTO agent_bot_daily (organization_id, brand_id, host, day, bot_name, category, verification, visits, error_visits, disallowed_visits, last_seen)
         SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::text[], $4::date[], $5::text[], $6::text[], $7::text[], $8::bigint[], $9::bigint[], $10::bigint[], $11::timestamptz[])
         ON CONFLICT (organization_id, day, brand_id, host, bot_name, verification) DO UPDATE SET
           visits = agent_bot_daily.visits + excluded.visits, error_visits = agent_bot_daily.error_visits + excluded.error_visits,
           disallowed_visits = agent_bot_daily.disallowed_visits + excluded.disallowed_visits, last_seen = greatest(agent_bot_daily.last_seen, excluded.last_seen)`,
        [v.map((x) => x.org), v.map((x) => x.brand), v.map((x) => x.host), v.map((x) => x.day), v.map((x) => x.bot), v.map((x) => x.category), v.map((x) => x.verification), v.map((x) => x.visits), v.map((x) => x.errors), v.map((x) => x.disallowed), v.map((x) => new Date(x.last).toISOString())],
      );
    }
    if (pages.length) {
      const v = pages;
      await client.query(
        `INSERT INTO agent_page_daily (organization_id, brand_id, host, day, bot_name, path, status, visits, disallowed_visits)
         SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::text[], $4::date[], $5::text[], $6::text[], $7::smallint[], $8::bigint[], $9::bigint[])
         ON CONFLICT (organization_id, day, brand_id, host, bot_name, path, status) DO UPDATE SET
           visits = agent_page_daily.visits + excluded.visits, disallowed_visits = agent_page_daily.disallowed_visits + excluded.disallowed_visits`,
        [v.map((x) => x.org), v.map((x) => x.brand), v.map((x) => x.host), v.map((x) => x.day), v.map((x) => x.bot), v.map((x) => x.path), v.map((x) => x.status), v.map((x) => x.visits), v.map((x) => x.disallowed)],
      );
      const totals = new Map<string, { org: number; brand: number; host: string; day: string; path: string; visits: number; errors: number; disallowed: number }>();
      for (const p of v) {
        const k = `${p.org}\u0000${p.brand}\u0000${p.host}\u0000${p.day}\u0000${p.path}`;
        let t = totals.get(k);
        if (!t) totals.set(k, (t = { org: p.org, brand: p.brand, host: p.host, day: p.day, path: p.path, visits: 0, errors: 0, disallowed: 0 }));
        t.visits += p.visits;
        if (p.status >= 400) t.errors += p.visits;
        t.disallowed += p.disallowed;
      }
      const t = sortedValues(totals);
      await client.query(
        `INSERT INTO agent_page_totals_daily (organization_id, brand_id, host, day, path, visits, error_visits, disallowed_visits)
         SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::text[], $4::date[], $5::text[], $6::bigint[], $7::bigint[], $8::bigint[])
         ON CONFLICT (organization_id, day, brand_id, host, path) DO UPDATE SET visits = agent_page_totals_daily.visits + excluded.visits,
           error_visits = agent_page_totals_daily.error_visits + excluded.error_visits, disallowed_visits = agent_page_totals_daily.disallowed_visits + excluded.disallowed_visits`,
        [t.map((x) => x.org), t.map((x) => x.brand), t.map((x) => x.host), t.map((x) => x.day), t.map((x) => x.path), t.map((x) => x.visits), t.map((x) => x.errors), t.map((x) => x.disallowed)],
      );
    }
    if (this.referrals.size) {
      const v = sortedValues(this.referrals);
      await client.query(
        `INSERT INTO ai_referral_daily (organization_id, brand_id, host, day, source, path, visits)
         SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::text[], $4::date[], $5::text[], $6::text[], $7::bigint[])
         ON CONFLICT (organization_id, day, brand_id, host, source, path) DO UPDATE SET visits = ai_referral_daily.visits + excluded.visits`,
        [v.map((x) => x.org), v.map((x) => x.brand), v.map((x) => x.host), v.map((x) => x.day), v.map((x) => x.source), v.map((x) => x.path), v.map((x) => x.visits)],
      );
    }
  }
}

/** The longest page key the rollups keep, in UTF-8 bytes: with the host and the bot's name it stays within a B-tree entry (2,704 bytes). */
export const PAGE_PATH_MAX_BYTES = 2048;

/** The page a request is for: its path without the query (rollups count pages, not URLs), at most PAGE_PATH_MAX_BYTES of UTF-8. */
export function pagePath(path: string): string {
  const q = path.indexOf('?');
  const h = path.indexOf('#');
  const cut = q < 0 ? h : h < 0 ? q : Math.min(q, h);
  const page = (cut < 0 ? path : path.slice(0, cut)) || '/';
  // A UTF-16 unit takes at most 3 bytes of UTF-8: a short page needs no count.
  if (page.length * 3 <= PAGE_PATH_MAX_BYTES || Buffer.byteLength(page) <= PAGE_PATH_MAX_BYTES) return page;
  let bytes = 0;
  let end = 0;
  while (end < page.length) {
    const c = page.charCodeAt(end);
    const pair = c >= 0xd800 && c <= 0xdbff && end + 1 < page.length;
    const size = pair ? 4 : c < 0x80 ? 1 : c < 0x800 ? 2 : 3;
    if (bytes + size > PAGE_PATH_MAX_BYTES) break;
    bytes += size;
    end += pair ? 2 : 1;
  }
  return page.slice(0, end);
}

/** Values in the order of their keys. */
function sortedByKey<V>(entries: [string, V][]): V[] {
  return entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, v]) => v);
}

/** A map's values in key order: concurrent batches then lock shared rollup rows in the same order (no deadlock). */
function sortedValues<V>(m: Map<string, V>): V[] {
  return sortedByKey([...m.entries()]);
}
