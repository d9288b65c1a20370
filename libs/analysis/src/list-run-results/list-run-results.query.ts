import { Injectable } from '@nestjs/common';
import { type Principal } from '@libs/auth';
import { ApiError, page, PaginationQuery } from '@libs/http';
import { AnalysisReads } from '../read-model/analysis-reads';
import { AnalysisResultListResponse } from './list-run-results.response.dto';

/** The read behind `GET /api/v1/analysis-runs/:id/results`: its controller, the MCP server and other apps call `read`. */
@Injectable()
export class ListRunResults {
  constructor(private readonly reads: AnalysisReads) {}

  async read(p: Principal, id: number, q: PaginationQuery): Promise<AnalysisResultListResponse> {
    if (!(await this.reads.run(p, id))) throw ApiError.notFound(`Analysis run ${id}`);
    const { rows, total } = await this.reads.results(p, { runId: id, limit: q.limit, offset: q.offset, order: q.order });
    return page(rows, total, q);
  }
}
