import { Body, Controller, HttpCode, Post, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { ApiCreatedResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScope, type Principal } from '@libs/auth';
import { RequestAudit } from './request-audit.handler';
import { RequestAuditRequest } from './request-audit.request.dto';
import { AuditDryRunResponse, AuditRequestResponse } from './request-audit.response.dto';
import { AUDIT_DRY_RUN_EXAMPLE, AUDIT_REQUEST_EXAMPLE } from './request-audit.example';

@ApiTags('Analysis')
@Controller('api/v1/audit-requests')
export class RequestAuditController {
  constructor(private readonly audits: RequestAudit) {}

  @Post()
  @HttpCode(201)
  @RequireScope('write:audits')
  @ApiOperation({
    operationId: 'audit_requests_create',
    summary: "Ask the AI engines a brand's questions now: starts an analysis run (trigger api)",
    description:
      'dryRun: true answers 200 with the expected cost and asks nothing. One answer per query and provider; follow the run at GET /api/v1/analysis-runs/{analysisRunId}. Providers without an API key are answered by the recorded source. Each request counts against the organisation’s audit-request quota per UTC day and month, by tier: beyond it, 429 RATE_LIMITED with Retry-After (seconds until that window starts again) and details.quota, details.period, details.remaining.',
  })
  @ApiCreatedResponse({ type: AuditRequestResponse, example: AUDIT_REQUEST_EXAMPLE })
  @ApiOkResponse({ type: AuditDryRunResponse, description: 'dryRun: true: the expected cost; nothing asked or recorded', example: AUDIT_DRY_RUN_EXAMPLE })
  @ApiNotFoundResponse({ description: 'No brand the caller may see has this id' })
  async create(
    @CurrentPrincipal() p: Principal,
    @Body() body: RequestAuditRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<AuditRequestResponse | AuditDryRunResponse> {
    if (body.dryRun !== true) return { data: await this.audits.start(p, body) };
    void reply.status(200);
    return { data: { estimate: await this.audits.estimate(p, body) } };
  }
}
