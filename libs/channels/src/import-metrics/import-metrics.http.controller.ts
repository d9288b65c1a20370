import { Controller, Headers, HttpCode, Param, Post, Req, Res } from '@nestjs/common';
import { ApiBody, ApiConflictResponse, ApiConsumes, ApiCreatedResponse, ApiHeader, ApiNotFoundResponse, ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import { RouteConfig } from '@nestjs/platform-fastify';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CurrentPrincipal, RequireScope, type Principal } from '@libs/auth';
import { ApiError, ParseIdPipe } from '@libs/http';
import { ChannelAccess } from '../channel-access';
import { FIRST_IMPORT_DAY, IMPORT_COLUMNS } from '../domain';
import { IMPORT_MEDIA_TYPES, IMPORT_ROUTE_CONFIG } from './import-bodies';
import { MAX_IMPORT_BYTES, MetricsImporter } from './metrics-importer';

export class ImportResultDto {
  @ApiProperty({ type: 'integer', description: 'The sync record of the import (GET /channels/{id}/syncs)' }) syncId!: number;
  @ApiProperty({ type: 'integer' }) channelId!: number;
  @ApiProperty({ type: 'integer', description: 'Daily rows written (a row with the same day and brand as an earlier import replaces it)' }) rows!: number;
  @ApiProperty({ type: 'string', format: 'date', nullable: true }) startDate!: string | null;
  @ApiProperty({ type: 'string', format: 'date', nullable: true }) endDate!: string | null;
  @ApiProperty({ description: 'True when this answers a repeated Idempotency-Key: nothing changed' }) replayed!: boolean;
}
export class ImportResultResponse {
  @ApiProperty({ type: ImportResultDto }) data!: ImportResultDto;
}

const KEY = /^[\x21-\x7e]{1,200}$/;

const DESCRIPTION =
  `A CSV file (header row) or NDJSON (one JSON object a line) of daily rows, at most ${MAX_IMPORT_BYTES / 1024 / 1024} MB. Columns: ${IMPORT_COLUMNS.join(', ')}; ` +
  `\`date\` (YYYY-MM-DD, from ${FIRST_IMPORT_DAY} to tomorrow, UTC) and at least one figure are required; ` +
  '`brandId` or `domain` name the brand (one of the client\'s), else the channel\'s brand. ' +
  'Counts are non-negative integers, conversions and revenue non-negative numbers, an empty cell is null. Every row is checked and the file is taken whole or not at all: ' +
  'a bad row refuses it with 400, `details.fields` naming `rows[<line>].<column>`. A day and brand already imported is replaced. ' +
  'With `Idempotency-Key`, the same file sent again by the same credential changes nothing and answers 200 with the first result (`replayed: true`); another file under that key is 409. ' +
  'A key belongs to the channel and the credential (API key or OAuth client) that sent it.';

@ApiTags('Channels')
@Controller('api/v1/channels')
export class ImportMetricsController {
  constructor(
    private readonly access: ChannelAccess,
    private readonly importer: MetricsImporter,
  ) {}

  @Post(':id/imports')
  // NDJSON is taken on this route (the kit's parser hands its text over); a body a little over the
  // import limit still reaches the importer, which answers 400 naming the limit.
  @RouteConfig({ ...IMPORT_ROUTE_CONFIG, ndjson: true, bodyLimit: MAX_IMPORT_BYTES + 1024 * 1024 })
  @HttpCode(201)
  @RequireScope('write:metrics')
  @ApiOperation({ operationId: 'channels_import', summary: 'Import daily metric rows (CSV or NDJSON) into an import channel, all or nothing', description: DESCRIPTION })
  @ApiConsumes(...Object.keys(IMPORT_MEDIA_TYPES))
  @ApiBody({ schema: { type: 'string', example: 'date,sessions,conversions,revenue\n2026-11-23,1840,42,3915.50\n' } })
  @ApiHeader({ name: 'Idempotency-Key', required: false, description: 'Makes a file re-sent by the same credential (API key or OAuth client) count once (1-200 visible ASCII characters); another credential\'s keys are its own' })
  @ApiCreatedResponse({ type: ImportResultResponse, example: { data: { syncId: 301, channelId: 14, rows: 365, startDate: '2025-11-24', endDate: '2026-11-23', replayed: false } } })
  @ApiConflictResponse({ description: 'The Idempotency-Key was used for another file on this channel' })
  @ApiNotFoundResponse({ description: 'No channel the caller may see has this id' })
  async import(
    @CurrentPrincipal() p: Principal,
    @Param('id', ParseIdPipe) id: number,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
    @Headers('idempotency-key') key: string | undefined,
  ): Promise<ImportResultResponse> {
    const channel = await this.access.resolve(p, id);
    if (key !== undefined && !KEY.test(key)) throw ApiError.validation([{ field: 'Idempotency-Key', message: 'Idempotency-Key must be 1-200 visible ASCII characters' }]);
    const type = String(request.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase() as keyof typeof IMPORT_MEDIA_TYPES;
    const format = IMPORT_MEDIA_TYPES[type];
    if (!format) throw new ApiError(415, 'UNSUPPORTED_MEDIA_TYPE', `An import is ${Object.keys(IMPORT_MEDIA_TYPES).join(' or ')}`);
    const raw: unknown = request.body;
    const body = Buffer.isBuffer(raw) ? raw : typeof raw === 'string' ? Buffer.from(raw) : null;
    if (!body) throw ApiError.validation([{ field: 'body', message: 'the file is missing' }]);
    const result = await this.importer.import(channel, format, body, key === undefined ? null : { key, credential: p.subject });
    if (result.replayed) reply.status(200);
    return { data: result };
  }
}
