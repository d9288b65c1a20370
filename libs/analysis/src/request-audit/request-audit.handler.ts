import { Injectable } from '@nestjs/common';
import type { Principal } from '@libs/auth';
import { OrganizationQuotas } from '@libs/rate-limit';
import { BrandAccess } from '@libs/tenancy';
import { normaliseQuery, PROVIDERS, type Provider } from '../domain';
import { RunRequests } from '../shared/run-requests';
import type { AuditRequestDto } from './request-audit.response.dto';

/** What an audit request asks: validated by its callers (the REST body, the MCP tool's arguments). */
export interface AuditRequestInput {
  brandId: number;
  queries: string[];
  providers?: Provider[];
}

/**
 * Starts an analysis run for a brand's questions now (trigger api): 404 for a brand the caller
 * may not see, 429 beyond the organisation's audit-request quota (counted before anything is
 * recorded, given back if the run is not requested after all).
 */
@Injectable()
export class RequestAudit {
  constructor(
    private readonly brands: BrandAccess,
    private readonly runs: RunRequests,
    private readonly quotas: OrganizationQuotas,
  ) {}

  async start(p: Principal, input: AuditRequestInput): Promise<AuditRequestDto> {
    const brand = await this.brands.resolve(p, input.brandId);
    const queries = input.queries.map(normaliseQuery);
    const providers = input.providers ?? [...PROVIDERS];
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
        questions: queries.map((query) => ({ promptId: null, query, providers })),
        actor: p.subject,
      });
    } catch (error) {
      await this.quotas.refund(reservation);
      throw error;
    }
    return { id: auditRequestId, analysisRunId: run.runId, brandId: brand.id, queries, providers, status: 'queued', createdAt: run.requestedAt };
  }
}
