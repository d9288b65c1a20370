import { Body, Controller, Headers, HttpCode, Post, Res } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import { ApiAcceptedResponse, ApiBody, ApiConflictResponse, ApiConsumes, ApiHeader, ApiOperation, ApiTags } from '@nestjs/swagger';
import { createHash } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import { CurrentPrincipal, RequireScope, type Principal } from '@libs/auth';
import { ApiError, inputProblem, jsonArrayElements, jsonSizeProblem, NotJsonArray, type BodyRouteConfig, type FieldProblem } from '@libs/http';
import { visitFromEntry, type Visit } from '../domain/visit';
import { VisitIngester } from '../shared/visit-ingester';
import { LoopTurns } from '../shared/loop-turns';
import { VisitStore, type BotVisitRow, type ReferralRow } from '../shared/visit-store';
import { IngestEntryDto } from './ingest-visits.request.dto';
import { INGEST_EXAMPLE, IngestVisitsResponse, type IngestResultDto } from './ingest-visits.response.dto';

export const MAX_INGEST_ENTRIES = 10_000;
/** The largest ingest body: 10,000 entries with room for their signature headers. */
export const INGEST_MAX_BYTES = 16 * 1024 * 1024;
const INGEST_ROUTE: BodyRouteConfig = { bodyLimit: INGEST_MAX_BYTES, bodyMaxKeys: MAX_INGEST_ENTRIES * 70, ndjson: true, jsonText: true };
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

@ApiTags('Agent analytics')
@Controller('api/v1/agent-analytics')
export class IngestVisitsController {
  constructor(
    private readonly ingester: VisitIngester,
    private readonly store: VisitStore,
  ) {}

  @Post('ingest')
  @HttpCode(202)
  @RouteConfig(INGEST_ROUTE)
  @RequireScope('write:agent-analytics')
  @ApiOperation({
    operationId: 'agent_analytics_ingest',
    summary: 'Send visits to your site (CDN or server logs): AI agents are classified, verified and stored; people sent by AI assistants are counted',
    description:
      `A JSON array or NDJSON (\`application/x-ndjson\`) of at most ${MAX_INGEST_ENTRIES} entries, at most 16 MiB. A batch with any malformed entry is refused whole (400 naming each ` +
      'entry and field, nothing stored); well-formed entries older than the retention period are rejected one by one (202, counted with reasons). ' +
      'Visits belong to the credential\'s organisation and to the brand whose domain (or a subdomain of it) is the host.',
  })
  @ApiConsumes('application/json', 'application/x-ndjson')
  @ApiBody({ type: [IngestEntryDto] })
  @ApiHeader({ name: 'Idempotency-Key', required: false, description: 'Up to 255 visible characters, kept a week for the credential (API key or OAuth client) that sent them: a batch it re-sends with the same key is counted once and answered as the first time (Idempotent-Replayed: true); the same key with another body is 409. Another credential\'s keys are its own.' })
  @ApiAcceptedResponse({ type: IngestVisitsResponse, example: INGEST_EXAMPLE })
  @ApiConflictResponse({ description: 'The Idempotency-Key was used for another batch' })
  async ingest(
    @CurrentPrincipal() p: Principal,
    @Body() body: unknown,
    @Headers('idempotency-key') idempotencyKey: string | undefined,
    @Headers('content-type') contentType: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<IngestVisitsResponse> {
    if (idempotencyKey !== undefined && !/^[\x21-\x7e]{1,255}$/.test(idempotencyKey)) throw ApiError.validation([{ field: 'Idempotency-Key', message: 'Idempotency-Key must be 1 to 255 visible ASCII characters' }]);
    const turns = new LoopTurns();
    const { entries, lines } = await entriesOf(body, /^application\/x-ndjson\b/i.test(contentType ?? ''), turns);
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
    if (replay) {
      reply.header('idempotent-replayed', 'true');
      return { data: replay.replay as IngestResultDto };
    }
    return { data: result };
  }
}
