import { Injectable } from '@nestjs/common';
import { BrandAccess } from '@libs/tenancy';
import { type Principal } from '@libs/auth';
import { answerFindings, pageFindings, rankRecommendations } from '../domain';
import { PageAuditsRepository } from '../read-model/page-audits.repository';
import { GeoRecommendationsResponse } from './geo-recommendations.response.dto';
import { GeoRecommendationsQuery } from './geo-recommendations.request.dto';

/** The read behind `GET /api/v1/geo/recommendations`: its controller, the MCP server and other apps call `read`. */
@Injectable()
export class GeoRecommendations {
  constructor(
    private readonly scope: BrandAccess,
    private readonly audits: PageAuditsRepository,
  ) {}

  async read(p: Principal, q: GeoRecommendationsQuery): Promise<GeoRecommendationsResponse> {
    const brand = await this.scope.scopeOf(p, q);
    const since = new Date(Date.now() - (q.days ?? 30) * 86_400_000);
    const [pages, answers] = await Promise.all([this.audits.audited(brand.id), this.audits.answerFindings(brand.organizationId, brand.id, since)]);
    return { data: rankRecommendations([...pageFindings(pages), ...answerFindings(answers.findings, answers.answersWithCitations)]) };
  }
}
