import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { AI_AGENTS, COMPONENTS } from './domain';

export class CheckDto {
  @ApiProperty({ example: 'fix_json_ld', description: 'The check (also the code of its recommendation)' }) code!: string;
  @ApiProperty({ example: 0.2, description: 'Share of the component the check is worth' }) max!: number;
  @ApiProperty({ example: 0, description: 'What the page got of it' }) got!: number;
  @ApiProperty({ example: '1 of 2 JSON-LD block(s) do not parse: block 1: Unexpected token }' }) finding!: string;
}

export class ComponentDto {
  @ApiProperty({ enum: COMPONENTS, example: 'structuredData' }) component!: string;
  @ApiProperty({ type: 'integer', example: 20, description: 'Weight of the component in the score (weights add up to 100)' }) weight!: number;
  @ApiProperty({ example: 0.8, minimum: 0, maximum: 1 }) value!: number;
  @ApiProperty({ example: 16, description: 'weight x value' }) points!: number;
  @ApiProperty({ type: [CheckDto] }) checks!: CheckDto[];
}

export class PageRecommendationDto {
  @ApiProperty({ example: 'fix_json_ld' }) code!: string;
  @ApiProperty({ enum: COMPONENTS, example: 'structuredData', description: 'The component it improves' }) component!: string;
  @ApiProperty({ example: 'Fix JSON-LD that does not parse' }) title!: string;
  @ApiProperty({ example: 'Fix the JSON-LD syntax (a broken block is ignored whole by every engine)' }) action!: string;
  @ApiProperty({ example: 4, description: 'Points of the page score the fix is expected to add' }) expectedEffect!: number;
  @ApiProperty({ enum: ['low', 'medium', 'high'], example: 'low' }) effort!: string;
  @ApiProperty({ type: 'object', additionalProperties: true, description: 'What was found (finding) and its details', example: { finding: '1 of 2 JSON-LD block(s) do not parse' } }) evidence!: Record<string, unknown>;
}

export class AgentAccessDto {
  @ApiProperty({ enum: AI_AGENTS.map((a) => a.agent), example: 'GPTBot' }) agent!: string;
  @ApiProperty({ example: 'OpenAI' }) operator!: string;
  @ApiProperty({ enum: ['search', 'user', 'training'], example: 'training' }) category!: string;
  @ApiProperty({ example: false }) allowed!: boolean;
}

export class BotVisitDto {
  @ApiProperty({ example: 'GPTBot' }) bot!: string;
  @ApiProperty({ type: 'integer', example: 10 }) visits!: number;
  @ApiProperty({ type: 'integer', example: 3, description: 'Visits answered 4xx/5xx' }) errors!: number;
  @ApiProperty({ type: [Number], example: [503] }) statuses!: number[];
}

export class BotVisitsDto {
  @ApiProperty({ type: 'integer', example: 30 }) days!: number;
  @ApiProperty({ type: [BotVisitDto] }) bots!: BotVisitDto[];
}

export class BotAccessDto {
  @ApiProperty({ enum: ['found', 'missing', 'unavailable'], description: 'robots.txt as read: found, missing (4xx: all allowed), unavailable (5xx/unreachable: all disallowed)' }) robots!: string;
  @ApiProperty({ type: [AgentAccessDto] }) agents!: AgentAccessDto[];
  @ApiPropertyOptional({ type: BotVisitsDto, nullable: true, description: 'AI bots’ visits of the page in the last 30 days and the errors they got (agent analytics)' }) seen?: BotVisitsDto | null;
}

export class ScorePointDto {
  @ApiProperty({ type: 'integer', example: 41 }) auditId!: number;
  @ApiProperty({ format: 'date-time' }) auditedAt!: string;
  @ApiProperty({ type: 'integer', example: 64 }) score!: number;
}

export class GeoPageDto {
  @ApiProperty({ example: 'https://acme-crm.com/pricing' }) url!: string;
  @ApiProperty({ type: 'integer', example: 42, description: 'The audit of the latest score' }) auditId!: number;
  @ApiProperty({ format: 'date-time' }) auditedAt!: string;
  @ApiProperty({ enum: ['scored', 'not_modified'], description: 'not_modified: 304 to the previous validators, scored again from what was read then' }) status!: string;
  @ApiPropertyOptional({ type: 'integer', nullable: true, example: 200 }) httpStatus!: number | null;
  @ApiProperty({ type: 'integer', minimum: 0, maximum: 100, example: 78 }) score!: number;
  @ApiProperty({ type: [String], enum: ['home', 'product', 'faq', 'howto', 'article'], example: ['product', 'faq'], description: 'What the page looks like (decides which schema types fit)' }) kinds!: string[];
  @ApiProperty({ type: [ComponentDto] }) components!: ComponentDto[];
  @ApiProperty({ type: [PageRecommendationDto], description: 'Ranked by expected effect for the effort' }) recommendations!: PageRecommendationDto[];
  @ApiProperty({ type: BotAccessDto }) botAccess!: BotAccessDto;
  @ApiProperty({ type: [ScorePointDto], description: 'The page’s scores, newest first (up to 20 audits)' }) history!: ScorePointDto[];
}
