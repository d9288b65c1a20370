import { Injectable } from '@nestjs/common';
import { BrandAccess } from '@libs/tenancy';
import { type Principal } from '@libs/auth';
import { page } from '@libs/http';
import { addDays } from '@libs/metrics';
import { AnalysisReads } from '../read-model/analysis-reads';
import { ListAnalysisResultsQuery } from './list-analysis-results.request.dto';
import { AnalysisResultsPage } from './list-analysis-results.response.dto';

/** The read behind `GET /api/v1/analysis-results`: its controller, the MCP server and other apps call `read`. */
@Injectable()
export class ListAnalysisResults {
  constructor(
    private readonly brands: BrandAccess,
    private readonly reads: AnalysisReads,
  ) {}

  async read(p: Principal, q: ListAnalysisResultsQuery): Promise<AnalysisResultsPage> {
    if (q.brandId !== undefined) await this.brands.assertVisible(p, q.brandId);
    const { rows, total } = await this.reads.results(p, {
      brandId: q.brandId,
      provider: q.provider,
      country: q.country,
      language: q.language,
      from: q.startDate === undefined ? undefined : `${q.startDate}T00:00:00Z`,
      to: q.endDate === undefined ? undefined : `${addDays(q.endDate, 1)}T00:00:00Z`,
      text: q.text,
      limit: q.limit,
      offset: q.offset,
      order: q.order,
    });
    return page(rows, total, q);
  }
}
