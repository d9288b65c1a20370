import { Controller, Get, Query } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiProperty, ApiPropertyOptional, ApiTags } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { CurrentPrincipal, RequireScope, type Principal } from '@libs/auth';
import { BrandQuery, queryInteger } from '@libs/http';
import { answerFindings, COMPONENTS, pageFindings, rankRecommendations } from '../domain';
import { PageAuditsRepository } from '../read-model/page-audits.repository';
import { BrandScope } from '../shared/brand-scope';

const daysMessage = 'days must be an integer from 1 to 365';

export class GeoRecommendationsQuery extends BrandQuery {
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 365, default: 30, description: 'Answer findings look at the answers of the last N days (UTC)' })
  @IsOptional()
  @Transform(queryInteger)
  @IsInt({ message: daysMessage })
  @Min(1, { message: daysMessage })
  @Max(365, { message: daysMessage })
  days?: number;
}

export class ExpectedEffectDto {
  @ApiProperty({ example: 12.5 }) value!: number;
  @ApiProperty({ enum: ['page_score_points', 'citation_rate_points'], description: 'page_score_points: the brand’s average page score gain; citation_rate_points: percentage points of citation rate' }) unit!: string;
  @ApiProperty({ example: '+12.5 points of citation rate (5 of 40 answers with citations)' }) summary!: string;
}

export class RecommendationDto {
  @ApiProperty({ example: 'answers:best crm for agencies', description: 'Stable id: pages:<code> or answers:<query>' }) id!: string;
  @ApiProperty({ enum: ['pages', 'answers'] }) source!: string;
  @ApiProperty({ example: 'earn_citation' }) code!: string;
  @ApiProperty({ enum: [...COMPONENTS, 'citations'], description: 'The page-score component it improves, or citations for an answer finding' }) component!: string;
  @ApiProperty() title!: string;
  @ApiProperty() action!: string;
  @ApiProperty({ type: ExpectedEffectDto }) expectedEffect!: ExpectedEffectDto;
  @ApiProperty({ enum: ['low', 'medium', 'high'] }) effort!: string;
  @ApiProperty({ example: 6.25, description: 'expectedEffect.value / effort cost (low 1, medium 2, high 3): the ranking key' }) priority!: number;
  @ApiProperty({ type: 'object', additionalProperties: true, description: 'pages: the pages affected with their scores; answers: the query, answers, providers and the competitors’ cited pages' }) evidence!: Record<string, unknown>;
}

export class GeoRecommendationsResponse {
  @ApiProperty({ type: [RecommendationDto] }) data!: RecommendationDto[];
}

const EXAMPLE = {
  data: [
    {
      id: 'answers:best crm for agencies',
      source: 'answers',
      code: 'earn_citation',
      component: 'citations',
      title: 'Get cited where competitors are: “best crm for agencies”',
      action: 'Publish or improve a page that answers “best crm for agencies” directly (answer first, figures, sources, fitting schema); engines cite globex.com for it instead',
      expectedEffect: { value: 12.5, unit: 'citation_rate_points', summary: 'up to +12.5 points of citation rate (5 of 40 answers with citations)' },
      effort: 'medium',
      priority: 6.25,
      evidence: { query: 'best crm for agencies', answers: 5, providers: ['chatgpt', 'perplexity'], competitorPages: [{ url: 'https://globex.com/crm-for-agencies', domain: 'globex.com', competitor: 'Globex', citations: 4 }] },
    },
    {
      id: 'pages:fix_json_ld',
      source: 'pages',
      code: 'fix_json_ld',
      component: 'structuredData',
      title: 'Fix JSON-LD that does not parse',
      action: 'Fix the JSON-LD syntax (a broken block is ignored whole by every engine)',
      expectedEffect: { value: 1.3, unit: 'page_score_points', summary: '+1.3 points of the average page score (1 of 3 audited page(s), up to +4 on one page)' },
      effort: 'low',
      priority: 1.3,
      evidence: { pagesAffected: 1, pagesAudited: 3, pages: [{ url: 'https://acme-crm.com/pricing', score: 71, expectedEffect: 4 }] },
    },
  ],
};

@ApiTags('GEO')
@Controller('api/v1/geo')
export class GeoRecommendationsController {
  constructor(
    private readonly scope: BrandScope,
    private readonly audits: PageAuditsRepository,
  ) {}

  @Get('recommendations')
  @RequireScope('read:visibility')
  @ApiOperation({
    operationId: 'geo_recommendations',
    summary: 'What to change first: page findings of the latest audits merged with answer findings (prompts where a competitor’s page is cited and the brand’s is not), ranked by expected effect for the effort',
  })
  @ApiOkResponse({ type: GeoRecommendationsResponse, example: EXAMPLE })
  @ApiNotFoundResponse({ description: 'No brand the caller may see has this id' })
  async list(@CurrentPrincipal() p: Principal, @Query() q: GeoRecommendationsQuery): Promise<GeoRecommendationsResponse> {
    const brand = await this.scope.resolve(p, q);
    const since = new Date(Date.now() - (q.days ?? 30) * 86_400_000);
    const [pages, answers] = await Promise.all([this.audits.audited(brand.id), this.audits.answerFindings(brand.organizationId, brand.id, since)]);
    return { data: rankRecommendations([...pageFindings(pages), ...answerFindings(answers.findings, answers.answersWithCitations)]) };
  }
}
