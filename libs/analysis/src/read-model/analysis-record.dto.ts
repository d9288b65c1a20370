import { ApiProperty } from '@nestjs/swagger';
import { PROVIDERS, type AnalysedCitation, type AnalysedEntity, type FactCheck, type Provider, type RunEndReason, type RunStatus, type RunTrigger } from '../domain';
import type { AnalysisResultRecord, AnalysisRunRecord } from './analysis-records';

export class AnalysisRunDto implements AnalysisRunRecord {
  @ApiProperty({ type: 'integer' }) id!: number;
  @ApiProperty({ type: 'integer' }) brandId!: number;
  @ApiProperty({ enum: ['api', 'schedule', 'seed'] }) trigger!: RunTrigger;
  @ApiProperty({ enum: ['queued', 'running', 'completed', 'partial', 'failed'], description: 'partial: some answers failed; failed: all did' }) status!: RunStatus;
  @ApiProperty({ type: [String] }) queries!: string[];
  @ApiProperty({ type: [String], enum: PROVIDERS }) providers!: Provider[];
  @ApiProperty({ type: 'integer', description: 'queries × providers' }) answersExpected!: number;
  @ApiProperty({ type: 'integer' }) answersRecorded!: number;
  @ApiProperty({ type: 'integer' }) answersFailed!: number;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) startedAt!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) completedAt!: string | null;
  @ApiProperty({ type: String, enum: ['budget_exhausted'], nullable: true, description: 'budget_exhausted: a budget (per run, or the month of the organisation) stopped the run asking, and it ended partial; else null' })
  reason!: RunEndReason | null;
  @ApiProperty({ type: 'integer', description: 'Questions not asked because a budget would have been exceeded (counted in answersFailed)' }) answersNotAsked!: number;
}

export class CostDto {
  @ApiProperty({ type: 'integer', description: 'Input tokens the providers reported (cached input included)' }) inputTokens!: number;
  @ApiProperty({ type: 'integer', description: 'Of the input tokens, those read from the provider’s prompt cache (billed lower)' }) cachedInputTokens!: number;
  @ApiProperty({ type: 'integer' }) outputTokens!: number;
  @ApiProperty({ description: 'USD at the price table in force on each answer’s day (tokens and per-request search fees), rounded to 1e-6' }) usd!: number;
  @ApiProperty({ type: 'integer', description: 'Answers and judge calls whose model has no price in the table (their tokens count, their USD is 0)' }) unpricedAnswers!: number;
}

/** A cost that counts the sentiment judge's calls too, and says their part. */
export class CostWithJudgeDto extends CostDto {
  @ApiProperty({
    type: CostDto,
    description: 'The part of this figure spent on sentiment judge calls (issue 32): their tokens at the judge model’s price (tokens only, no search fee); cached verdicts and fallbacks cost nothing',
  })
  judge!: CostDto;
}

export class ProviderCostDto extends CostWithJudgeDto {
  @ApiProperty({ enum: PROVIDERS }) provider!: Provider;
}

export class RunCostDto extends CostWithJudgeDto {
  @ApiProperty({
    type: [ProviderCostDto],
    description: 'One entry per provider of the run, in the run’s provider order, then any provider only the judge calls were billed to; judge calls count under the provider whose key they use (openai: chatgpt, anthropic: claude)',
  })
  byProvider!: ProviderCostDto[];
}

export class AnalysisRunDetailDto extends AnalysisRunDto {
  @ApiProperty({ type: RunCostDto, description: 'What the run’s answers and the judge calls on them cost (live answers; the recorded source costs nothing), computed when read (DESIGN §17)' }) cost!: RunCostDto;
}

export class AnalysisRunResponse {
  @ApiProperty({ type: AnalysisRunDetailDto }) data!: AnalysisRunDetailDto;
}

export class ResultCitationDto implements AnalysedCitation {
  @ApiProperty({ description: 'Normalised URL' }) url!: string;
  @ApiProperty() domain!: string;
  @ApiProperty({ type: String, nullable: true }) title!: string | null;
  @ApiProperty({ type: 'integer', description: '1-based, the answer order' }) position!: number;
  @ApiProperty({ enum: ['brand', 'competitor', 'other'] }) owner!: 'brand' | 'competitor' | 'other';
  @ApiProperty({ type: String, nullable: true, description: 'brand-<id> or competitor-<id> when owned' }) entityId!: string | null;
}

export class ResultEntityDto implements Omit<AnalysedEntity, 'labeller'> {
  @ApiProperty({ description: 'brand-<id> or competitor-<id>' }) entityId!: string;
  @ApiProperty({ enum: ['brand', 'competitor'] }) kind!: 'brand' | 'competitor';
  @ApiProperty() name!: string;
  @ApiProperty() mentioned!: boolean;
  @ApiProperty({ type: 'integer' }) mentions!: number;
  @ApiProperty({ type: 'integer', nullable: true }) rank!: number | null;
  @ApiProperty({ type: String, enum: ['positive', 'neutral', 'negative'], nullable: true }) sentiment!: 'positive' | 'neutral' | 'negative' | null;
  @ApiProperty({ type: Number, nullable: true, minimum: -1, maximum: 1 }) sentimentScore!: number | null;
  @ApiProperty({ minimum: 0, maximum: 1, description: 'Position-adjusted word-count share (DESIGN §14)' }) visibilityShare!: number;
  @ApiProperty({ type: String, nullable: true, description: 'Who decided `sentiment`: `judge:<provider>/<model>` (the sentiment judge) or `model:<engineVersion>` (the offline model); null without a label' })
  labeller!: string | null;
}

export class FactCheckDto implements FactCheck {
  @ApiProperty({ enum: ['foundedYear', 'startingPrice', 'headquarters'] }) fact!: FactCheck['fact'];
  @ApiProperty({ description: 'What the answer says' }) claimed!: string;
  @ApiProperty({ description: 'The registered fact' }) expected!: string;
  @ApiProperty({ description: 'false: the answer contradicts the fact' }) agrees!: boolean;
  @ApiProperty() sentence!: string;
}

export class AnalysisResultDto implements AnalysisResultRecord {
  @ApiProperty({ description: '<runId>-<n>' }) id!: string;
  @ApiProperty({ type: 'integer' }) runId!: number;
  @ApiProperty({ type: 'integer' }) brandId!: number;
  @ApiProperty({ type: 'integer', nullable: true, description: 'The tracked prompt asked (null for an audit request)' }) promptId!: number | null;
  @ApiProperty() query!: string;
  @ApiProperty({ enum: PROVIDERS }) provider!: Provider;
  @ApiProperty({ type: String, nullable: true, description: 'The country it was asked for (ISO 3166-1 alpha-2); null: the provider’s default' }) country!: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'The language it was asked in (BCP 47); null: the provider’s default' }) language!: string | null;
  @ApiProperty({ type: String, nullable: true }) model!: string | null;
  @ApiProperty({ type: String, enum: ['live', 'recorded'], nullable: true }) source!: 'live' | 'recorded' | null;
  @ApiProperty({ enum: ['answered', 'failed'] }) status!: 'answered' | 'failed';
  @ApiProperty({ type: String, nullable: true, description: 'The answer text (markdown)' }) answer!: string | null;
  @ApiProperty({ type: [ResultCitationDto] }) citations!: ResultCitationDto[];
  @ApiProperty({ type: [ResultEntityDto], description: 'Empty until the answer is analysed' }) entities!: ResultEntityDto[];
  @ApiProperty({ type: [FactCheckDto], description: "Claims about the brand on its registered facts (PUT /brands/{id}/facts), checked" }) claims!: FactCheckDto[];
  @ApiProperty({ type: String, nullable: true }) engineVersion!: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'Why the answer failed' }) error!: string | null;
  @ApiProperty({ format: 'date-time' }) askedAt!: string;
  @ApiProperty({ type: 'integer', nullable: true }) latencyMs!: number | null;
}
