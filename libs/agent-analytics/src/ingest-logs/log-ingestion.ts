import { Injectable } from '@nestjs/common';
import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { logParser, type LogFormat } from '../domain/log-formats';
import { PlainCombinedReader } from '../domain/plain-combined';
import type { Visit } from '../domain/visit';
import { VisitIngester, type Kept } from '../shared/visit-ingester';
import { VisitStore, VisitWrite, type BotVisitRow } from '../shared/visit-store';

export interface LogIngestOptions {
  format: LogFormat;
  organizationId: number;
  /** The site host for lines that name none (nginx, apache `combined`). */
  host?: string;
  /**
   * Kept visits (AI agents, AI referrals) per transaction (its bot visits streamed by COPY as they
   * are read; default 100,000). A transaction also ends once it sums MAX_SUM_ROWS rollup rows.
   */
  batchSize?: number;
  /** Called as the input is read: bytes and lines so far. */
  onProgress?: (bytes: number, lines: number) => void;
}

export interface LogIngestSummary {
  lines: number;
  botVisits: number;
  aiReferrals: number;
  otherVisits: number;
  rejected: number;
  /** Rejected lines by reason. */
  reasons: Record<string, number>;
  /** The first rejected lines, with their number and reason. */
  rejections: { line: number; reason: string }[];
  seconds: number;
  linesPerSecond: number;
}

const LISTED = 20;
/** The longest line read: a "line" of a megabyte is no log line. */
export const MAX_LINE = 1_000_000;
const LF = 10;
const CR = 13;
const TOO_LONG = `the line is longer than ${MAX_LINE.toLocaleString('en')} characters`;

/**
 * `logs ingest`: streams a log (a file or stdin) line by line through its format's parser and
 * stores what the service keeps, with a memory that depends on neither the log's size nor its
 * mix of visits:
 * - a line of people or other bots (most of a log) is counted and dropped at once;
 * - a bot visit is judged as it is read (verification and robots.txt need no lookup for most) and
 *   encoded into the open COPY at once (binary, streamed in 64 KiB chunks); only its share of the
 *   rollup sums stays, so a batch holds sums, not rows. When PostgreSQL falls behind, the write
 *   waits for the connection to drain and the reading waits with it (backpressure);
 * - a visit whose verdict needs a lookup (reverse DNS not yet answered, a site's robots.txt not yet
 *   read) waits with at most PENDING others, then they are looked up together;
 * - every `batchSize` kept visits (or MAX_SUM_ROWS rollup rows) the transaction commits (COPY
 *   ended, rollups added) while the next one streams on another connection: one commit in flight.
 *   A larger batch sums more visits into each rollup row: fewer upserts for PostgreSQL.
 * A line that cannot be read (or is longer than MAX_LINE, skipped to its end) is counted with its
 * number and reason, never a crash.
 */
@Injectable()
export class LogIngestion {
  constructor(
    private readonly ingester: VisitIngester,
    private readonly store: VisitStore,
  ) {}

  /**
   * `input`: a stream, or reads of bytes (or text) asked for one at a time; a read's buffer may be
   * used again for the next read once that is asked for (nothing of it is held past its lines).
   */
  async run(input: Readable | AsyncIterable<Buffer | string>, o: LogIngestOptions): Promise<LogIngestSummary> {
    const started = process.hrtime.bigint();
    const parser = logParser(o.format, { host: o.host });
    const plain = o.format === 'nginx' || o.format === 'apache' ? PlainCombinedReader.forHost(o.host) : null;
    const batchSize = o.batchSize ?? DEFAULT_BATCH;
    const now = Date.now();
    const summary: LogIngestSummary = { lines: 0, botVisits: 0, aiReferrals: 0, otherVisits: 0, rejected: 0, reasons: {}, rejections: [], seconds: 0, linesPerSecond: 0 };
    const intake = await this.ingester.intake({ organizationId: o.organizationId, clientId: null });
    let write: VisitWrite | null = null;
    let kept = 0;
    let pending: { row: BotVisitRow; settle: () => Promise<void> }[] = [];
    let committing: Promise<void> = Promise.resolve();
    const reject = (line: number, reason: string): undefined => {
      summary.rejected++;
      summary.reasons[reason] = (summary.reasons[reason] ?? 0) + 1;
      if (summary.rejections.length < LISTED) summary.rejections.push({ line, reason });
      return undefined;
    };
    const open = async (): Promise<VisitWrite> => {
      const w = await this.store.begin();
      if (!(w instanceof VisitWrite)) throw new Error('a write without an idempotency key was answered as a replay');
      return (write = w);
    };
    // Commits the open write in the background: one commit in flight (a failed one fails the run
    // here, and the open write is rolled back).
    const handOver = async () => {
      await committing;
      const w = write!;
      write = null;
      kept = 0;
      committing = w.commit();
      committing.catch(() => undefined);
      await intake.renew();
    };
    // A bot visit of a day whose partition is new, once the open write holds bot_visits, goes to the next write.
    const addBot = (row: BotVisitRow): Promise<void> | undefined => (write!.takes(row.at) ? write!.addBot(row) : handOver().then(open).then((w) => w.addBot(row)));
    const settle = async () => {
      const waiting = pending;
      pending = [];
      await Promise.all(waiting.map((p) => p.settle()));
      for (const p of waiting) {
        const wait = addBot(p.row);
        if (wait) await wait;
      }
    };
    const commit = async () => {
      await settle();
      await handOver();
    };
    const full = () => write !== null && (kept >= batchSize || write.sumRows >= MAX_SUM_ROWS);
    const store = (k: Kept, w: VisitWrite): Promise<void> | undefined => {
      kept++;
      if ('referral' in k) {
        summary.aiReferrals++;
        w.addReferral(k.referral);
        return undefined;
      }
      summary.botVisits++;
      if (!k.settle) return addBot(k.bot);
      pending.push({ row: k.bot, settle: k.settle });
      return pending.length >= PENDING ? settle() : undefined;
    };
    // A visit read from a line: refused for its age, dropped when kept of nothing (most of a log), or
    // stored. Age is judged as read, on one clock for the whole log.
    const keepVisit = (visit: Visit, n: number): Promise<void> | undefined => {
      const old = this.ingester.tooOld(visit, now);
      if (old) return reject(n, old);
      const k = intake.keep(visit);
      if (!k) {
        summary.otherVisits++;
        return undefined;
      }
      return write ? store(k, write) : open().then((w) => store(k, w));
    };
    // One line as text: refused (its reason counted), or its visit kept or dropped.
    const take = (raw: string, n: number): Promise<void> | undefined => {
      const text = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
      if (text === '') return undefined;
      if (text.length > MAX_LINE) return reject(n, TOO_LONG);
      const r = parser.parse(text);
      if ('reason' in r) return reject(n, r.reason);
      if (!('visit' in r)) return undefined;
      return keepVisit(r.visit, n);
    };
    // One line as read, `buf[start, end)`: a plain combined line of a visit the service keeps nothing
    // of is counted without becoming text (but for its user agent and referer); any other line is
    // decoded and taken as text (see PlainCombinedReader).
    const keptFrom = this.ingester.keptFrom(now);
    const isBot = (userAgent: string) => this.ingester.classifier.classify(userAgent) !== null;
    const takeBytes = (buf: Buffer, start: number, end: number, n: number): Promise<void> | undefined => {
      if (end > start && buf[end - 1] === CR) end--;
      if (end === start) return undefined;
      if (plain && end - start <= MAX_LINE && plain.read(buf, start, end, Date.now())) {
        // Dropped at once when, within retention, it is surely neither a catalogue agent's (its user
        // agent judged by the classifier, remembered by its bytes) nor sent by an AI assistant (its
        // referer or its query could not name one); otherwise judged as any visit.
        if (plain.at >= keptFrom && !plain.agentVerdict(isBot) && !plain.refererMayBeAi() && !plain.queryNamesUtm()) {
          summary.otherVisits++;
          return undefined;
        }
        const userAgent = plain.userAgent();
        return keepVisit(plain.visit(userAgent, plain.referer()), n);
      }
      return take(buf.toString('utf8', start, end), n);
    };
    try {
      // The start of a line the last reads ended in, as text (a read ends anywhere, even within a character).
      const decoder = new StringDecoder('utf8');
      let rest = '';
      let carrying = false;
      // After a line longer than MAX_LINE: its rest, up to the next newline, is skipped.
      let skipping = false;
      let bytes = 0;
      for await (const read of input as AsyncIterable<Buffer | string>) {
        // A stream of text (a test's) is read as its UTF-8.
        const chunk = typeof read === 'string' ? Buffer.from(read, 'utf8') : read;
        bytes += chunk.length;
        let start = 0;
        let nl = chunk.indexOf(LF);
        if (nl < 0) {
          // No line ends in this read: it all belongs to the line begun before.
          if (!skipping) {
            rest += decoder.write(chunk);
            carrying = true;
          }
        } else {
          if (!skipping) {
            const wait = carrying ? take(rest + decoder.end(chunk.subarray(0, nl)), ++summary.lines) : takeBytes(chunk, 0, nl, ++summary.lines);
            if (wait) await wait;
            if (full()) await commit();
          }
          rest = '';
          carrying = false;
          skipping = false;
          start = nl + 1;
          for (nl = chunk.indexOf(LF, start); nl >= 0; nl = chunk.indexOf(LF, start)) {
            const wait = takeBytes(chunk, start, nl, ++summary.lines);
            start = nl + 1;
            if (wait) await wait;
            if (full()) await commit();
          }
          if (start < chunk.length) {
            rest = decoder.write(chunk.subarray(start));
            carrying = true;
          }
        }
        if (rest.length > MAX_LINE) {
          reject(++summary.lines, TOO_LONG);
          rest = '';
          decoder.end();
          carrying = false;
          skipping = true;
        }
        o.onProgress?.(bytes, summary.lines);
      }
      if (carrying && !skipping) {
        const wait = take(rest + decoder.end(), ++summary.lines);
        if (wait) await wait;
      }
      if (write) await commit();
      await committing;
    } catch (error) {
      await (write as VisitWrite | null)?.rollback();
      await committing.catch(() => undefined);
      throw error;
    }
    summary.seconds = Number(process.hrtime.bigint() - started) / 1e9;
    summary.linesPerSecond = Math.round(summary.lines / Math.max(summary.seconds, 1e-9));
    return summary;
  }
}

/** Bot visits that may wait for a lookup before they are looked up together. */
const PENDING = 1000;
export const DEFAULT_BATCH = 100_000;
/**
 * The rollup rows (bot, page and referral sums) a transaction holds at most: what bounds the
 * memory of a batch, whatever its size and the log's variety of pages.
 */
export const MAX_SUM_ROWS = 20_000;
