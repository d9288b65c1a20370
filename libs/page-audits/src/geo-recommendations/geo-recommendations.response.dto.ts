import { ApiProperty } from '@nestjs/swagger';
import { COMPONENTS } from '../domain';

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
