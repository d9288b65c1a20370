import { Body, Controller, Headers, HttpCode, Post, Res } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import { ApiAcceptedResponse, ApiBody, ApiConflictResponse, ApiConsumes, ApiHeader, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { CurrentPrincipal, RequireScope, type Principal } from '@libs/auth';
import { ApiError } from '@libs/http';
import { INGEST_ROUTE, MAX_INGEST_ENTRIES } from './batch-intake';
import { IngestLane } from './ingest-lane';
import { IngestEntryDto } from './ingest-visits.request.dto';
import { INGEST_EXAMPLE, IngestVisitsResponse } from './ingest-visits.response.dto';

@ApiTags('Agent analytics')
@Controller('api/v1/agent-analytics')
export class IngestVisitsController {
  constructor(private readonly lane: IngestLane) {}

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
    const answer = await this.lane.take({
      body,
      ndjson: /^application\/x-ndjson\b/i.test(contentType ?? ''),
      organizationId: p.organizationId,
      clientId: p.clientId,
      subject: p.subject,
      ...(idempotencyKey === undefined ? {} : { idempotencyKey }),
    });
    if (answer.replayed) reply.header('idempotent-replayed', 'true');
    return { data: answer.data };
  }
}
