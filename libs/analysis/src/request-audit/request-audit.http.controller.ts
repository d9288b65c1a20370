import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiNotFoundResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScope, type Principal } from '@libs/auth';
import { OrganizationQuotas } from '@libs/rate-limit';
import { BrandAccess } from '@libs/tenancy';
import { normaliseQuery, PROVIDERS } from '../domain';
import { RunRequests } from '../shared/run-requests';
import { RequestAuditRequest } from './request-audit.request.dto';
import { AuditRequestResponse } from './request-audit.response.dto';
import { AUDIT_REQUEST_EXAMPLE } from './request-audit.example';

@ApiTags('Analysis')
@Controller('api/v1/audit-requests')
export class RequestAuditController {
  constructor(
    private readonly brands: BrandAccess,
    private readonly runs: RunRequests,
    private readonly quotas: OrganizationQuotas,
  ) {}

  @Post()
  @HttpCode(201)
  @RequireScope('write:audits')
  @ApiOperation({
    operationId: 'audit_requests_create',
    summary: "Ask the AI engines a brand's questions now: starts an analysis run (trigger api)",
    description:
      'One answer per query and provider; follow the run at GET /api/v1/analysis-runs/{analysisRunId}. Providers without an API key are answered by the recorded source. Each request counts against the organisation’s audit-request quota per UTC day and month, by tier: beyond it, 429 RATE_LIMITED with Retry-After (seconds until that window starts again) and details.quota, details.period, details.remaining.',
  })
  @ApiCreatedResponse({ type: AuditRequestResponse, example: AUDIT_REQUEST_EXAMPLE })
  @ApiNotFoundResponse({ description: 'No brand the caller may see has this id' })
  async create(@CurrentPrincipal() p: Principal, @Body() body: RequestAuditRequest): Promise<AuditRequestResponse> {
    const brand = await this.brands.resolve(p, body.brandId);
    const queries = body.queries.map(normaliseQuery);
    const providers = body.providers ?? [...PROVIDERS];
    const market = { country: body.country ?? null, language: body.language ?? null };
    // Counted before anything is recorded (429 when the quota cannot take it), given back if the run is not requested after all.
    const reservation = await this.quotas.reserveOrRefuse(brand.organizationId, 'audit_requests', 1);
    let auditRequestId: number;
    let run: Awaited<ReturnType<RunRequests['request']>>;
    try {
      auditRequestId = await this.runs.nextAuditRequestId();
      run = await this.runs.request({
        organizationId: brand.organizationId,
        brandId: brand.id,
        trigger: 'api',
        auditRequestId,
        questions: queries.map((query) => ({ promptId: null, query, providers, market })),
        actor: p.subject,
      });
    } catch (error) {
      await this.quotas.refund(reservation);
      throw error;
    }
    return { data: { id: auditRequestId, analysisRunId: run.runId, brandId: brand.id, queries, providers, ...market, status: 'queued', createdAt: run.requestedAt } };
  }
}
