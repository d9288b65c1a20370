import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { parse } from 'csv-parse/sync';
import { DataSource } from 'typeorm';
import { ApiError, type FieldProblem } from '@libs/http';
import { ChannelsRepository, type Channel } from '../channels.repository';
import { utcDay } from '@libs/metrics';
import { emptyData, headerProblems, importDays, importRow, type MetricRow, type RowProblem } from '../domain';
import { BrandMap } from '../read-model/brand-map';
import { writeChannelData } from '../read-model/daily-rows.store';

/** The largest file an import takes. */
export const MAX_IMPORT_BYTES = 10 * 1024 * 1024;
export const IMPORT_FORMATS = ['csv', 'ndjson'] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];

export interface ImportResult {
  syncId: number;
  channelId: number;
  rows: number;
  startDate: string | null;
  endDate: string | null;
  /** True when this is the answer of an earlier import with the same idempotency key (nothing changed). */
  replayed: boolean;
}

const tooLarge = () => ApiError.validation([{ field: 'body', message: `the file is larger than ${MAX_IMPORT_BYTES / 1024 / 1024} MB` }]);
const asFields = (problems: RowProblem[]): FieldProblem[] => problems.map((p) => ({ field: `rows[${p.line}].${p.field}`, message: `line ${p.line}: ${p.message}` }));

/**
 * The rows of a CSV text with the line each starts on, cells trimmed, blank lines skipped. A file
 * without quotes is split directly (lines, then commas: what such a file means); one with quotes
 * goes through csv-parse (RFC 4180: quoted commas, quotes and line breaks), several times slower.
 */
function csvRows(text: string): { line: number; cells: string[] }[] {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (!body.includes('"')) {
    const rows: { line: number; cells: string[] }[] = [];
    const lines = body.split('\n');
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i].endsWith('\r') ? lines[i].slice(0, -1) : lines[i];
      if (line.trim() !== '') rows.push({ line: i + 1, cells: line.split(',').map((c) => c.trim()) });
    }
    return rows;
  }
  try {
    const parsed = parse(body, { info: true, skip_empty_lines: true, trim: true, relax_column_count: true }) as unknown as { record: string[]; info: { lines: number } }[];
    return parsed.map((r) => ({ line: r.info.lines, cells: r.record }));
  } catch (error) {
    const e = error as { lines?: number; message: string };
    throw ApiError.validation([{ field: `rows[${e.lines ?? 0}]`, message: `line ${e.lines ?? 0}: ${e.message}` }], 'The file is not valid CSV');
  }
}

/** The records of a file with the line each starts on; header problems refuse the whole file. */
function records(format: ImportFormat, text: string): { line: number; record: Record<string, unknown> }[] {
  if (format === 'csv') {
    const rows = csvRows(text);
    if (!rows.length) throw ApiError.validation([{ field: 'body', message: 'the file is empty' }]);
    const header = rows[0].cells;
    const problems = headerProblems(header);
    if (problems.length) throw ApiError.validation(problems.map((message) => ({ field: 'header', message })), 'The header of the file is not valid');
    const wrong = rows.filter((r) => r.cells.length !== header.length);
    if (wrong.length) {
      throw ApiError.validation(
        wrong.map((r) => ({ field: `rows[${r.line}]`, message: `line ${r.line}: ${r.cells.length} cells where the header has ${header.length}` })),
        'The file is not valid CSV',
      );
    }
    return rows.slice(1).map((r) => ({ line: r.line, record: Object.fromEntries(header.map((h, i) => [h, r.cells[i]])) }));
  }
  const out: { line: number; record: Record<string, unknown> }[] = [];
  const problems: FieldProblem[] = [];
  const columns = new Set<string>();
  text.split('\n').forEach((raw, i) => {
    const line = raw.trim();
    if (!line) return;
    try {
      const value: unknown = JSON.parse(line);
      if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('not an object');
      for (const k of Object.keys(value)) columns.add(k);
      out.push({ line: i + 1, record: value as Record<string, unknown> });
    } catch {
      problems.push({ field: `rows[${i + 1}]`, message: `line ${i + 1}: not a JSON object` });
    }
  });
  if (problems.length) throw ApiError.validation(problems, 'The file is not valid NDJSON');
  if (!out.length) throw ApiError.validation([{ field: 'body', message: 'the file is empty' }]);
  const header = headerProblems([...columns]);
  if (header.length) throw ApiError.validation(header.map((message) => ({ field: 'header', message })), 'The keys of the file are not valid');
  return out;
}

/** The credential `metrics import` (the administration CLI) stores its idempotency keys under. */
export const CLI_IMPORT_CREDENTIAL = 'cli';

/** An import's `Idempotency-Key` and the credential that sent it (`key:<id>`, `oauth:<id>`, `cli`): a key is that credential's alone, on that channel. */
export interface ImportIdempotency {
  key: string;
  credential: string;
}

/**
 * Imports a file of daily metric rows into an import channel (DESIGN §13.3): every row is checked
 * (date within importDays, figures non-negative, the brand one of the client's), and the file is
 * taken whole or not at all, in one transaction, recorded as a sync. With an idempotency key, the
 * same file sent again by the same credential changes nothing and gets the first answer; a
 * different file under a key it used is 409.
 */
@Injectable()
export class MetricsImporter {
  constructor(
    private readonly dataSource: DataSource,
    private readonly channels: ChannelsRepository,
  ) {}

  async import(channel: Channel, format: ImportFormat, body: Buffer, idempotency: ImportIdempotency | null): Promise<ImportResult> {
    if (channel.kind !== 'import') throw ApiError.validation([{ field: 'id', message: `channel ${channel.id} is a ${channel.kind} channel; imports go to an import channel` }]);
    if (body.length > MAX_IMPORT_BYTES) throw tooLarge();
    const hash = createHash('sha256').update(format).update('\0').update(body).digest('hex');
    if (idempotency !== null) {
      const earlier = await this.earlier(channel.id, idempotency, hash);
      if (earlier) return earlier;
    }
    const started = new Date();
    const brands = await BrandMap.load(this.dataSource, channel.organizationId, channel.clientId, channel.brandId);
    const rows: MetricRow[] = [];
    const problems: RowProblem[] = [];
    const seen = new Map<string, number>();
    const days = importDays(utcDay(started.getTime()));
    for (const { line, record } of records(format, body.toString('utf8'))) {
      const checked = importRow(record, line, days);
      problems.push(...checked.problems);
      const row = checked.row;
      if (!row) continue;
      if (row.brandId !== null && row.brandId !== undefined && !brands.brandIds.has(row.brandId)) {
        problems.push({ line, field: 'brandId', message: `brand ${row.brandId} is not a brand of client ${channel.clientId}` });
        continue;
      }
      if (row.domain && brands.ofDomain(row.domain) === undefined) {
        problems.push({ line, field: 'domain', message: `${row.domain} is not a domain of a brand of client ${channel.clientId}` });
        continue;
      }
      const key = `${row.date}|${brands.brandOf(row) ?? 0}`;
      const first = seen.get(key);
      if (first !== undefined) {
        problems.push({ line, field: 'date', message: `the same day and brand as line ${first}` });
        continue;
      }
      seen.set(key, line);
      rows.push(row);
    }
    if (problems.length) throw ApiError.validation(asFields(problems), `The file has ${problems.length} problem(s); nothing was imported`);
    const dates = rows.map((r) => r.date).sort();
    const window = dates.length ? { start: dates[0], end: dates[dates.length - 1] } : null;
    return this.dataSource.transaction(async (m) => {
      const data = { ...emptyData(), metrics: rows };
      const written = await writeChannelData(m, { organizationId: channel.organizationId, clientId: channel.clientId, channelId: channel.id, kind: channel.kind }, brands, data);
      const sync = await this.channels.recordImport(m, channel, written, window, started);
      const result: ImportResult = { syncId: sync.id, channelId: channel.id, rows: written, startDate: window?.start ?? null, endDate: window?.end ?? null, replayed: false };
      if (idempotency !== null) {
        // A concurrent import under the same key: the unique key refuses the second, which rolls back whole.
        await m.query(`INSERT INTO channel_imports (channel_id, credential, idempotency_key, organization_id, body_sha256, result) VALUES ($1, $2, $3, $4, $5, $6::jsonb)`, [
          channel.id,
          idempotency.credential,
          idempotency.key,
          channel.organizationId,
          hash,
          JSON.stringify(result),
        ]);
      }
      return result;
    });
  }

  private async earlier(channelId: number, { key, credential }: ImportIdempotency, hash: string): Promise<ImportResult | null> {
    const [row]: { body_sha256: string; result: ImportResult }[] = await this.dataSource.query(`SELECT body_sha256, result FROM channel_imports WHERE channel_id = $1 AND credential = $2 AND idempotency_key = $3`, [
      channelId,
      credential,
      key,
    ]);
    if (!row) return null;
    if (row.body_sha256 !== hash) throw new ApiError(409, 'CONFLICT', 'This Idempotency-Key was used for another file on this channel', { idempotencyKey: key });
    return { ...row.result, replayed: true };
  }
}
