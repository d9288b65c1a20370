import { Body, Controller, HttpCode, Post, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { ApiCreatedResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScope, type Principal } from '@libs/auth';
import { OrganizationQuotas } from '@libs/rate-limit';
import { BrandAccess } from '@libs/tenancy';
import { normaliseQuery, PROVIDERS, roundUsd, type Provider } from '../domain';
import { RunRequests } from '../shared/run-requests';
import { SpendLedger } from '../shared/spend-ledger';
import { ANALYSIS_CONFIG, type AnalysisConfig } from '../analysis.config';
import { InjectConfig } from '@libs/config';
import { RequestAuditRequest } from './request-audit.request.dto';
import { AuditDryRunResponse, AuditRequestResponse } from './request-audit.response.dto';
import { AUDIT_DRY_RUN_EXAMPLE, AUDIT_REQUEST_EXAMPLE } from './request-audit.example';

@ApiTags('Analysis')
@Controller('api/v1/audit-requests')
export class RequestAuditController {
  constructor(
    private readonly brands: BrandAccess,
    private readonly runs: RunRequests,
    private readonly quotas: OrganizationQuotas,
    private readonly ledger: SpendLedger,
    @InjectConfig(ANALYSIS_CONFIG) private readonly config: AnalysisConfig,
  ) {}

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
    const brand = await this.brands.resolve(p, body.brandId);
    const queries = body.queries.map(normaliseQuery);
    const providers = body.providers ?? [...PROVIDERS];
    const market = { country: body.country ?? null, language: body.language ?? null };
    if (body.dryRun === true) {
      void reply.status(200);
      return { data: { estimate: await this.estimate(brand.organizationId, queries.length, providers) } };
    }
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

  /** The expected cost of asking `queries` questions of each provider: the ledger's estimate per live provider, nothing for the recorded source. */
  private async estimate(organizationId: number, queries: number, providers: readonly Provider[]): Promise<AuditDryRunResponse['data']['estimate']> {
    const byProvider = await Promise.all(
      providers.map(async (provider) => {
        // Without a key the recorded source answers (Engines' rule), at no cost.
        if (this.config.providers[provider].apiKey === null) return { provider, questions: queries, source: 'recorded' as const, inputTokens: 0, outputTokens: 0, usd: 0 };
        const one = await this.ledger.estimate(organizationId, provider, this.config.providers[provider].model);
        return { provider, questions: queries, source: 'live' as const, inputTokens: one.inputTokens * queries, outputTokens: one.outputTokens * queries, usd: roundUsd(one.usd * queries) };
      }),
    );
    const sum = (k: 'inputTokens' | 'outputTokens' | 'usd') => byProvider.reduce((a, e) => a + e[k], 0);
    return { questions: queries * providers.length, inputTokens: sum('inputTokens'), outputTokens: sum('outputTokens'), usd: roundUsd(sum('usd')), byProvider };
  }
}
