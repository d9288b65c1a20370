import { Injectable } from '@nestjs/common';
import { type Principal } from '@libs/auth';
import { ApiError } from '@libs/http';
import { AnalysisRunResponse } from './get-analysis-run.response.dto';
import { AnalysisReads } from '../read-model/analysis-reads';

/** The read behind `GET /api/v1/analysis-runs/:id`: its controller, the MCP server and other apps call `read`. */
@Injectable()
export class GetAnalysisRun {
  constructor(private readonly reads: AnalysisReads) {}

  async read(p: Principal, id: number): Promise<AnalysisRunResponse> {
    const run = await this.reads.run(p, id);
    if (!run) throw ApiError.notFound(`Analysis run ${id}`);
    return { data: run };
  }
}
