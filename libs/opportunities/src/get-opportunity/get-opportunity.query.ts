import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { Principal } from '@libs/auth';
import { poolOf, preparedQuery } from '@libs/sql';
import { ApiError } from '@libs/http';
import { BrandAccess } from '@libs/tenancy';
import type { OpportunityResponse } from '../opportunity.dto';
import { OpportunityRepository } from '../opportunity.repository';
import { completeRecordDocument, toRecord } from '../read-model/opportunity-row';

/** One opportunity from the list projection, filtered by the caller's tenant. */
@Injectable()
export class GetOpportunity {
  constructor(
    private readonly dataSource: DataSource,
    private readonly repository: OpportunityRepository,
    private readonly brands: BrandAccess,
  ) {}

  /** The opportunity as it was at `asOf` (from its events), or 404 when the caller cannot see it. */
  async asOf(p: Principal, id: number, asOf: Date): Promise<OpportunityResponse> {
    const state = await this.repository.loadAsOf(id, asOf);
    if (!state || !(await this.brands.canSeeResource(p, state))) throw ApiError.notFound(`Opportunity ${id}`);
    return { data: toRecord(state, asOf) };
  }

  /** One record's JSON text, or null when the caller cannot see it. */
  async json(p: Principal, id: number): Promise<string | null> {
    const rows = await preparedQuery<{ document: string; breached: boolean }>(
      poolOf(this.dataSource),
      `SELECT document, NOT terminal AND due_at < now() AS breached FROM opportunities
        WHERE id = $1 AND organization_id = $2 AND ($3::bigint IS NULL OR client_id = $3)`,
      [id, p.organizationId, p.clientId],
    );
    return rows.length ? completeRecordDocument(rows[0].document, rows[0].breached) : null;
  }
}
