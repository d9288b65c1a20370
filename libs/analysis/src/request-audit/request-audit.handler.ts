import { Injectable } from '@nestjs/common';
import type { Principal } from '@libs/auth';
import { InjectConfig } from '@libs/config';
import { OrganizationQuotas } from '@libs/rate-limit';
import { BrandAccess } from '@libs/tenancy';
import { ANALYSIS_CONFIG, type AnalysisConfig } from '../analysis.config';
import { normaliseQuery, PROVIDERS, roundUsd, type Provider } from '../domain';
import { RunRequests } from '../shared/run-requests';
import { SpendLedger } from '../shared/spend-ledger';
import type { AuditEstimateDto, AuditRequestDto } from './request-audit.response.dto';

/** What an audit request asks: validated by its callers (the REST body, the MCP tool's arguments). */
export interface AuditRequestInput {
  brandId: number;
  queries: string[];
  providers?: Provider[];
  /** The market asked for (ISO 3166-1 alpha-2, BCP 47; validated and normalised by the caller). */
  country?: string;
  language?: string;
}

/**
 * Starts an analysis run for a brand's questions now (trigger api): 404 for a brand the caller
 * may not see, 429 beyond the organisation's audit-request quota (counted before anything is
 * recorded, given back if the run is not requested after all). `estimate` is the dry run: the
 * expected cost, nothing asked, recorded or counted.
 */
@Injectable()
export class RequestAudit {
  constructor(
    private readonly brands: BrandAccess,
    private readonly runs: RunRequests,
    private readonly quotas: OrganizationQuotas,
    private readonly ledger: SpendLedger,
    @InjectConfig(ANALYSIS_CONFIG) private readonly config: AnalysisConfig,
  ) {}

  async start(p: Principal, input: AuditRequestInput): Promise<AuditRequestDto> {
    const brand = await this.brands.resolve(p, input.brandId);
    const queries = input.queries.map(normaliseQuery);
    const providers = input.providers ?? [...PROVIDERS];
    const market = { country: input.country ?? null, language: input.language ?? null };
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
    return { id: auditRequestId, analysisRunId: run.runId, brandId: brand.id, queries, providers, ...market, status: 'queued', createdAt: run.requestedAt };
  }

  /** The expected cost of the request: the ledger's estimate per live provider, nothing for the recorded source (404 for a brand the caller may not see). */
  async estimate(p: Principal, input: AuditRequestInput): Promise<AuditEstimateDto> {
    const brand = await this.brands.resolve(p, input.brandId);
    const queries = input.queries.length;
    const providers = input.providers ?? [...PROVIDERS];
    const byProvider = await Promise.all(
      providers.map(async (provider) => {
        // Without a key the recorded source answers (Engines' rule), at no cost.
        if (this.config.providers[provider].apiKey === null) return { provider, questions: queries, source: 'recorded' as const, inputTokens: 0, outputTokens: 0, usd: 0 };
        const one = await this.ledger.estimate(brand.organizationId, provider, this.config.providers[provider].model);
        return { provider, questions: queries, source: 'live' as const, inputTokens: one.inputTokens * queries, outputTokens: one.outputTokens * queries, usd: roundUsd(one.usd * queries) };
      }),
    );
    const sum = (k: 'inputTokens' | 'outputTokens' | 'usd') => byProvider.reduce((a, e) => a + e[k], 0);
    return { questions: queries * providers.length, inputTokens: sum('inputTokens'), outputTokens: sum('outputTokens'), usd: roundUsd(sum('usd')), byProvider };
  }
}
