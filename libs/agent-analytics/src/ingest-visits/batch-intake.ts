import { Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { ApiError, inputProblem, jsonArrayElements, jsonSizeProblem, NotJsonArray, type BodyRouteConfig, type FieldProblem } from '@libs/http';
import { visitFromEntry, type Visit } from '../domain/visit';
import { LoopTurns } from '../shared/loop-turns';
import { VisitIngester } from '../shared/visit-ingester';
import { VisitStore, type BotVisitRow, type ReferralRow } from '../shared/visit-store';
import type { IngestResultDto } from './ingest-visits.response.dto';

export const MAX_INGEST_ENTRIES = 10_000;
/** The largest ingest body: 10,000 entries with room for their signature headers. */
export const INGEST_MAX_BYTES = 16 * 1024 * 1024;
export const INGEST_ROUTE: BodyRouteConfig = { bodyLimit: INGEST_MAX_BYTES, bodyMaxKeys: MAX_INGEST_ENTRIES * 70, ndjson: true, jsonText: true };
const MAX_LISTED_REJECTIONS = 100;
const TOO_MANY = `a batch holds at most ${MAX_INGEST_ENTRIES} entries`;

/**
 * The entries of a body: a JSON array, or NDJSON text (one entry a line; blank lines skipped). Both
 * arrive as text and are parsed an entry at a time, SLICE entries between two turns of the event
 * loop: a batch of megabytes never holds the other requests of the process for long. Each entry
 * then passes the house's input check (`inputProblem`: NUL, unpaired surrogates, prototype names,
 * depth), as a parsed body would.
 */
async function entriesOf(body: unknown, ndjson: boolean, turns: LoopTurns): Promise<{ entries: unknown[]; lines: number[] | null }> {
  if (typeof body !== 'string') throw ApiError.validation([{ field: 'body', message: 'must be a JSON array of entries (or NDJSON with Content-Type application/x-ndjson)' }]);
  const entries: unknown[] = [];
  const taken = (entry: unknown, field: string) => {
    const problem = inputProblem(entry);
    if (problem) throw ApiError.validation([{ field: problem.field === 'body' ? field : problem.field.startsWith('[') ? `${field}${problem.field}` : `${field}.${problem.field}`, message: problem.message }]);
    entries.push(entry);
  };
  if (ndjson) {
    const lines: number[] = [];
    const problems: FieldProblem[] = [];
    const texts = body.split('\n');
    for (let i = 0; i < texts.length; i++) {
      const turn = turns.due();
      if (turn) await turn;
      const t = texts[i].trim();
      if (t === '') continue;
      if (entries.length + problems.length >= MAX_INGEST_ENTRIES) throw ApiError.validation([{ field: 'body', message: TOO_MANY }]);
      let entry: unknown;
      try {
        entry = JSON.parse(t);
      } catch {
        problems.push({ field: `line ${i + 1}`, message: 'is not a JSON object' });
        continue;
      }
      taken(entry, `line ${i + 1}`);
      lines.push(i + 1);
    }
    if (problems.length) throw ApiError.validation(problems, 'The batch holds lines that are not JSON: nothing was stored');
    return { entries, lines };
  }
  try {
    for (const element of jsonArrayElements(body, INGEST_ROUTE.bodyMaxKeys!)) {
      const turn = turns.due();
      if (turn) await turn;
      if (entries.length >= MAX_INGEST_ENTRIES) throw ApiError.validation([{ field: 'body', message: TOO_MANY }]);
      let entry: unknown;
      try {
        entry = JSON.parse(element);
      } catch {
        throw new ApiError(400, 'VALIDATION_ERROR', 'The body is not valid JSON');
      }
      taken(entry, `[${entries.length}]`);
    }
  } catch (error) {
    if (!(error instanceof NotJsonArray)) throw error;
    // Which one: no JSON, or JSON that is no array? Told within the route's member budget.
    const size = jsonSizeProblem(body, INGEST_ROUTE.bodyMaxKeys!);
    if (size) throw ApiError.validation([size]);
    try {
      JSON.parse(body);
    } catch {
      throw new ApiError(400, 'VALIDATION_ERROR', 'The body is not valid JSON');
    }
    throw ApiError.validation([{ field: 'body', message: 'must be a JSON array of entries (or NDJSON with Content-Type application/x-ndjson)' }]);
  }
  return { entries, lines: null };
}

/** One batch as the route received it, with who sent it: all a thread needs to take it (structured-clone safe). */
export interface IngestBatch {
  /** The body's text (JSON array or NDJSON). */
  body: unknown;
  ndjson: boolean;
  organizationId: number;
  clientId: number | null;
  /** The credential (`key:<id>` or `oauth:<id>`): idempotency keys are its own. */
  subject: string;
  idempotencyKey?: string;
}

/** What a batch taken answers: its counts, and whether they are the first answer to the same Idempotency-Key. */
export interface IngestAnswer {
  data: IngestResultDto;
  replayed: boolean;
}

/**
 * Takes one batch of visits: reads and checks every entry (a batch with any malformed entry is
 * refused whole), classifies and stores them (VisitIngester, VisitStore). Throws ApiError for what
 * the client sent wrong. Runs wherever its lane puts it (IngestLane): the ingestion thread, or the
 * request's own.
 */
@Injectable()
export class BatchIntake {
  constructor(
    private readonly ingester: VisitIngester,
    private readonly store: VisitStore,
  ) {}

  async take(batch: IngestBatch): Promise<IngestAnswer> {
    const { body, idempotencyKey } = batch;
    const p = { organizationId: batch.organizationId, clientId: batch.clientId, subject: batch.subject };
    const turns = new LoopTurns();
    const { entries, lines } = await entriesOf(body, batch.ndjson, turns);
    const now = Date.now();
    const visits: Visit[] = [];
    const problems: FieldProblem[] = [];
    for (let i = 0; i < entries.length; i++) {
      // A large batch is checked in turns, so the requests of others are served in between.
      const turn = turns.due();
      if (turn) await turn;
      const r = visitFromEntry(entries[i], lines ? `line ${lines[i]}` : `[${i}]`, now);
      if ('problems' in r) problems.push(...r.problems);
      else visits.push(r.visit);
    }
    if (problems.length) throw ApiError.validation(problems, 'The batch holds malformed entries: nothing was stored');
    const scope = { organizationId: p.organizationId, clientId: p.clientId };
    // An NDJSON batch is its text; a JSON one its entries (the same batch however it is spaced).
    const bodyHash = idempotencyKey === undefined ? '' : createHash('sha256').update(lines ? (body as string) : JSON.stringify(entries)).digest('hex');
    const intake = await this.ingester.intake(scope);
    const bots: BotVisitRow[] = [];
    const referrals: ReferralRow[] = [];
    const lookups: Promise<void>[] = [];
    const rejected: { index: number; reason: string }[] = [];
    let ignored = 0;
    for (let i = 0; i < visits.length; i++) {
      const turn = turns.due();
      if (turn) await turn;
      const old = this.ingester.tooOld(visits[i], now);
      if (old) {
        rejected.push({ index: i, reason: old });
        continue;
      }
      const k = intake.keep(visits[i]);
      if (!k) ignored++;
      else if ('referral' in k) referrals.push(k.referral);
      else {
        bots.push(k.bot);
        if (k.settle) lookups.push(k.settle());
      }
    }
    await Promise.all(lookups);
    const result: IngestResultDto = {
      accepted: visits.length - rejected.length,
      rejected: rejected.length,
      botVisits: bots.length,
      aiReferrals: referrals.length,
      otherVisits: ignored,
      rejections: rejected.slice(0, MAX_LISTED_REJECTIONS).map((r) => ({ index: lines ? lines[r.index] - 1 : r.index, reason: r.reason })),
    };
    const replay = await this.store.write(bots, referrals, idempotencyKey === undefined ? undefined : { organizationId: p.organizationId, credential: p.subject, key: idempotencyKey, bodyHash, response: result });
    if (replay && 'conflict' in replay) throw new ApiError(409, 'CONFLICT', 'This Idempotency-Key was used for another batch', { field: 'Idempotency-Key' });
    if (replay) return { data: replay.replay as IngestResultDto, replayed: true };
    return { data: result, replayed: false };
  }
}
