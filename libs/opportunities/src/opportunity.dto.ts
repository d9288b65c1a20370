import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { PageOf } from '@libs/http';
import { SEVERITIES, STATUSES, TYPES } from './domain';

/** Response schemas for the OpenAPI document. */
class SlaDto {
  @ApiProperty({ example: 'default' }) policy!: string;
  @ApiProperty({ format: 'date-time' }) dueAt!: string;
  @ApiProperty({ description: 'A non-terminal opportunity past its due time, judged at the moment of the request' }) breached!: boolean;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) breachedAt!: string | null;
}

export class VerificationDto {
  @ApiProperty({ enum: ['pending', 'passed', 'failed'], nullable: true }) status!: string | null;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) checkedAt!: string | null;
  @ApiProperty({ type: 'object', additionalProperties: true, nullable: true }) details!: Record<string, unknown> | null;
}

/** The finalised business impact of a resolved opportunity. */
export class OutcomeDto {
  @ApiProperty({ nullable: true, type: Number, description: 'null where there were no answers with citations in the window' }) citationRateBefore!: number | null;
  @ApiProperty({ nullable: true, type: Number }) citationRateAfter!: number | null;
  @ApiProperty({ nullable: true, type: Number, description: 'null while the brand has no channel data (never invented)' }) aiTrafficBefore!: number | null;
  @ApiProperty({ nullable: true, type: Number }) aiTrafficAfter!: number | null;
  @ApiProperty({ nullable: true, type: Number }) conversions!: number | null;
  @ApiProperty({ nullable: true, type: Number }) revenue!: number | null;
  @ApiProperty({ example: 'USD' }) currency!: string;
  @ApiProperty({ nullable: true, type: Number, description: 'Answers mentioning the brand / answers, in the window before detection' }) mentionRateBefore!: number | null;
  @ApiProperty({ nullable: true, type: Number, description: 'The same in the window after resolution' }) mentionRateAfter!: number | null;
  @ApiProperty({ type: 'object', additionalProperties: true, nullable: true, description: 'How each figure was measured: rates with n and 95% intervals, the windows, the figures without data' })
  measured!: Record<string, unknown> | null;
  @ApiProperty({ format: 'date-time' }) finalizedAt!: string;
}

export class OpportunityDto {
  @ApiProperty() id!: number;
  @ApiProperty() organizationId!: number;
  @ApiProperty() brandId!: number;
  @ApiProperty({ enum: TYPES }) type!: string;
  @ApiProperty({ enum: SEVERITIES }) severity!: string;
  @ApiProperty({ enum: STATUSES }) status!: string;
  @ApiProperty() title!: string;
  @ApiProperty({ nullable: true, type: String }) description!: string | null;
  @ApiProperty() fingerprint!: string;
  @ApiProperty({ example: 'api:key:12' }) source!: string;
  @ApiProperty({ type: 'object', additionalProperties: true }) evidence!: Record<string, unknown>;
  @ApiProperty({ nullable: true, type: String }) owner!: string | null;
  @ApiProperty({ type: SlaDto }) sla!: SlaDto;
  @ApiProperty({ type: VerificationDto }) verification!: VerificationDto;
  @ApiProperty({ type: () => OutcomeDto, nullable: true, description: 'Set once the outcome is finalised' }) outcome!: OutcomeDto | null;
  @ApiProperty({ nullable: true, type: Number }) recurrenceOf!: number | null;
  @ApiProperty({ format: 'date-time' }) detectedAt!: string;
  @ApiProperty({ format: 'date-time' }) updatedAt!: string;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) resolvedAt!: string | null;
  @ApiProperty({ description: 'The stream revision' }) version!: number;
}

export class OpportunityResponse {
  @ApiProperty({ type: OpportunityDto }) data!: OpportunityDto;
}

export class OpportunityPage extends PageOf(OpportunityDto) {}

export class OpportunityEventDto {
  @ApiProperty({ description: 'Position in the opportunity stream (0 = detection)' }) position!: number;
  @ApiProperty({ example: 'opportunity.transitioned' }) type!: string;
  @ApiProperty({ type: 'object', additionalProperties: true }) data!: Record<string, unknown>;
  @ApiProperty({ nullable: true, type: String, example: 'key:12' }) actor!: string | null;
  @ApiPropertyOptional({ nullable: true, type: String }) reason!: string | null;
  @ApiProperty({ nullable: true, type: String }) correlationId!: string | null;
  @ApiProperty({ format: 'date-time' }) recordedAt!: string;
}

export class OpportunityEventsResponse {
  @ApiProperty({ type: [OpportunityEventDto] }) data!: OpportunityEventDto[];
}

class KpisDto {
  @ApiProperty({ type: 'object', additionalProperties: { type: 'integer' }, description: 'Every state, terminal ones included' }) byStatus!: Record<string, number>;
  @ApiProperty({ type: 'object', additionalProperties: { type: 'integer' }, description: 'Open (non-terminal) opportunities by severity' }) bySeverity!: Record<string, number>;
  @ApiProperty({ type: 'object', additionalProperties: { type: 'object', additionalProperties: { type: 'integer' } } }) byStatusAndSeverity!: Record<string, Record<string, number>>;
  @ApiProperty() open!: number;
  @ApiProperty() total!: number;
  @ApiProperty({ description: 'Open opportunities past their SLA due time now' }) slaBreached!: number;
  @ApiProperty({ description: 'Opportunities in verifying: their fix waits for enough answers recorded after it to be verified' }) awaitingVerification!: number;
  @ApiProperty({ format: 'date-time' }) asOf!: string;
}

export class KpisResponse {
  @ApiProperty({ type: KpisDto }) data!: KpisDto;
}

class OutcomeRowDto {
  @ApiProperty() opportunityId!: number;
  @ApiProperty() brandId!: number;
  @ApiProperty() type!: string;
  @ApiProperty() severity!: string;
  @ApiProperty() title!: string;
  @ApiProperty({ format: 'date-time' }) resolvedAt!: string;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) finalizedAt!: string | null;
  @ApiProperty({ nullable: true, type: Number }) citationRateBefore!: number | null;
  @ApiProperty({ nullable: true, type: Number }) citationRateAfter!: number | null;
  @ApiProperty({ nullable: true, type: Number }) aiTrafficBefore!: number | null;
  @ApiProperty({ nullable: true, type: Number }) aiTrafficAfter!: number | null;
  @ApiProperty({ nullable: true, type: Number }) conversions!: number | null;
  @ApiProperty({ nullable: true, type: Number }) revenue!: number | null;
  @ApiProperty({ nullable: true, type: String }) currency!: string | null;
  @ApiProperty({ nullable: true, type: Number }) mentionRateBefore!: number | null;
  @ApiProperty({ nullable: true, type: Number }) mentionRateAfter!: number | null;
}

class OutcomeTotalsDto {
  @ApiProperty() resolved!: number;
  @ApiProperty() withOutcome!: number;
  @ApiProperty({ nullable: true, type: Number }) citationRateBeforeAvg!: number | null;
  @ApiProperty({ nullable: true, type: Number }) citationRateAfterAvg!: number | null;
  @ApiProperty({ nullable: true, type: Number }) mentionRateBeforeAvg!: number | null;
  @ApiProperty({ nullable: true, type: Number }) mentionRateAfterAvg!: number | null;
  @ApiProperty({ nullable: true, type: Number, description: 'Sum over the outcomes that have the figure; null when none has it' }) aiTrafficBefore!: number | null;
  @ApiProperty({ nullable: true, type: Number }) aiTrafficAfter!: number | null;
  @ApiProperty({ nullable: true, type: Number }) conversions!: number | null;
  @ApiProperty({ nullable: true, type: Number }) revenue!: number | null;
}

class OutcomesSummaryDto {
  @ApiProperty() sinceDays!: number;
  @ApiProperty({ format: 'date-time' }) from!: string;
  @ApiProperty({ format: 'date-time' }) to!: string;
  @ApiProperty({ type: OutcomeTotalsDto }) totals!: OutcomeTotalsDto;
  @ApiProperty({ type: [OutcomeRowDto] }) rows!: OutcomeRowDto[];
}

export class OutcomesSummaryResponse {
  @ApiProperty({ type: OutcomesSummaryDto }) data!: OutcomesSummaryDto;
}

/** The record a response gives of a decided state (the write routes answer with it). */
export { toRecord } from './read-model/opportunity-row';
