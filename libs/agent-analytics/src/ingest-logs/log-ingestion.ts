import { Injectable } from '@nestjs/common';
import type { Readable } from 'node:stream';
import { logParser, type LogFormat } from '../domain/log-formats';
import { detachVisit, type Visit } from '../domain/visit';
import { VisitIngester } from '../shared/visit-ingester';
import { VisitStore } from '../shared/visit-store';

export interface LogIngestOptions {
  format: LogFormat;
  organizationId: number;
  /** The site host for lines that name none (nginx, apache `combined`). */
  host?: string;
  /** Kept visits (AI agents, AI referrals) per stored batch (one COPY and one transaction each). */
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

/**
 * `logs ingest`: streams a log (a file or stdin) line by line through its format's parser, and
 * stores the visits in batches (classified, verified, COPY into bot_visits) while the next batch
 * is parsed; memory stays bounded by two batches whatever the log's size. A visit the service
 * keeps nothing of (neither an AI agent nor an AI referral: most of a log) is counted and dropped
 * at once, so it dies young instead of being held, with the batch, long enough to be promoted to
 * the old generation. A line that cannot be read is counted with its number and reason, never a
 * crash.
 */
@Injectable()
export class LogIngestion {
  constructor(
    private readonly ingester: VisitIngester,
    private readonly store: VisitStore,
  ) {}

  async run(input: Readable, o: LogIngestOptions): Promise<LogIngestSummary> {
    const started = process.hrtime.bigint();
    const parser = logParser(o.format, { host: o.host });
    const batchSize = o.batchSize ?? 20_000;
    const now = Date.now();
    const summary: LogIngestSummary = { lines: 0, botVisits: 0, aiReferrals: 0, otherVisits: 0, rejected: 0, reasons: {}, rejections: [], seconds: 0, linesPerSecond: 0 };
    const scope = { organizationId: o.organizationId, clientId: null };
    let batch: Visit[] = [];
    let batchLines: number[] = [];
    let writing: Promise<void> = Promise.resolve();
    const reject = (line: number, reason: string) => {
      summary.rejected++;
      summary.reasons[reason] = (summary.reasons[reason] ?? 0) + 1;
      if (summary.rejections.length < LISTED) summary.rejections.push({ line, reason });
    };
    const flush = async () => {
      const visits = batch;
      const lines = batchLines;
      batch = [];
      batchLines = [];
      const prepared = await this.ingester.prepare(scope, visits, now);
      // One write in flight: the next batch is parsed and classified meanwhile.
      await writing;
      for (const r of prepared.rejected) reject(lines[r.index], r.reason);
      summary.botVisits += prepared.bots.length;
      summary.aiReferrals += prepared.referrals.length;
      summary.otherVisits += prepared.ignored;
      writing = this.store.write(prepared.bots, prepared.referrals).then(() => undefined);
      writing.catch(() => undefined);
    };
    // One line: refused (its reason counted), dropped when kept of nothing (most of a log), or batched.
    // Age is judged as read, on one clock for the whole log.
    const take = (raw: string, n: number) => {
      const text = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
      if (text === '') return;
      const r = parser.parse(text);
      if ('reason' in r) return reject(n, r.reason);
      if (!('visit' in r)) return;
      const old = this.ingester.tooOld(r.visit, now);
      if (old) return reject(n, old);
      if (!this.ingester.concerns(r.visit)) {
        summary.otherVisits++;
        return;
      }
      batch.push(detachVisit(r.visit));
      batchLines.push(n);
    };
    let rest = '';
    let bytes = 0;
    input.setEncoding('utf8');
    for await (const chunk of input as AsyncIterable<string>) {
      bytes += Buffer.byteLength(chunk);
      const text = rest + chunk;
      let start = 0;
      for (let nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n', start)) {
        take(text.slice(start, nl), ++summary.lines);
        start = nl + 1;
        if (batch.length >= batchSize) await flush();
      }
      rest = text.slice(start);
      if (rest.length > 1_000_000) {
        // A "line" of a megabyte is not a log line: refuse it and resynchronise at the next newline.
        reject(++summary.lines, 'the line is longer than 1,000,000 characters');
        rest = '';
      }
      o.onProgress?.(bytes, summary.lines);
    }
    if (rest.length) take(rest, ++summary.lines);
    if (batch.length) await flush();
    await writing;
    summary.seconds = Number(process.hrtime.bigint() - started) / 1e9;
    summary.linesPerSecond = Math.round(summary.lines / Math.max(summary.seconds, 1e-9));
    return summary;
  }
}
