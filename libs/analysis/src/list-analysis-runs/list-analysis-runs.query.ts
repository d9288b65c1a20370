import { Injectable } from '@nestjs/common';
import { BrandAccess } from '@libs/tenancy';
import { type Principal } from '@libs/auth';
import { page, sortColumn } from '@libs/http';
import { AnalysisReads } from '../read-model/analysis-reads';
import { ListAnalysisRunsQuery, RUN_SORTS } from './list-analysis-runs.request.dto';
import { AnalysisRunListResponse } from './list-analysis-runs.response.dto';

/** The read behind `GET /api/v1/analysis-runs`: its controller, the MCP server and other apps call `read`. */
@Injectable()
export class ListAnalysisRuns {
  constructor(
    private readonly brands: BrandAccess,
    private readonly reads: AnalysisReads,
  ) {}

  async read(p: Principal, q: ListAnalysisRunsQuery): Promise<AnalysisRunListResponse> {
    if (q.brandId !== undefined) await this.brands.assertVisible(p, q.brandId);
    const { rows, total } = await this.reads.runs(p, { brandId: q.brandId, limit: q.limit, offset: q.offset, order: q.order, sortColumn: sortColumn(q.sort, RUN_SORTS, 'createdAt') });
    return page(rows, total, q);
  }
}
