import { ApiProperty, IntersectionType } from '@nestjs/swagger';
import { AnalysisRunDto } from '@libs/analysis';
import { ChangeDto } from '@libs/citations';
import { OpportunityDto, OutcomeDto, STATUSES, VerificationDto } from '@libs/opportunities';
import type { WebhookEventType } from '../domain';

/**
 * The payload schemas of the webhook events (the OpenAPI document's `webhooks` section). A
 * delivery's body is `{ type, timestamp, data }`; `data` holds the opportunity record exactly as
 * `GET /api/v1/opportunities/{id}` returns it at the event's stream revision.
 */
export class OpportunityChangeDto {
  @ApiProperty({ enum: STATUSES }) from!: string;
  @ApiProperty({ enum: STATUSES }) to!: string;
  @ApiProperty({ nullable: true, type: String }) reason!: string | null;
  @ApiProperty({ nullable: true, type: String, example: 'key:31', description: 'Who made the move (a key, an OAuth client, or the service)' }) actor!: string | null;
  @ApiProperty({ format: 'date-time' }) at!: string;
}

class ChangeField {
  @ApiProperty({ type: OpportunityChangeDto }) change!: OpportunityChangeDto;
}

/** The opportunity record after the move, with the move. */
export class TransitionedOpportunityDto extends IntersectionType(OpportunityDto, ChangeField) {}

export class VerificationCompletedDataDto {
  @ApiProperty({ type: OpportunityDto }) opportunity!: OpportunityDto;
  @ApiProperty({ type: VerificationDto }) verification!: VerificationDto;
}

export class OutcomeFinalizedDataDto {
  @ApiProperty({ type: OpportunityDto }) opportunity!: OpportunityDto;
  @ApiProperty({ type: OutcomeDto }) outcome!: OutcomeDto;
}

export class WebhookTestDataDto {
  @ApiProperty() webhookId!: number;
  @ApiProperty() message!: string;
}

const envelope = (type: WebhookEventType, data: new () => unknown, name: string) => {
  class Payload {
    @ApiProperty({ enum: [type] }) type!: string;
    @ApiProperty({ format: 'date-time', description: 'When the event was recorded' }) timestamp!: string;
    @ApiProperty({ type: data }) data!: unknown;
  }
  Object.defineProperty(Payload, 'name', { value: name });
  return Payload;
};

/** One schema per event type, named `<Event>Webhook`. */
export const WEBHOOK_PAYLOAD_SCHEMAS: Record<WebhookEventType, new () => unknown> = {
  'opportunity.opened': envelope('opportunity.opened', OpportunityDto, 'OpportunityOpenedWebhook'),
  'opportunity.transitioned': envelope('opportunity.transitioned', TransitionedOpportunityDto, 'OpportunityTransitionedWebhook'),
  'opportunity.resolved': envelope('opportunity.resolved', TransitionedOpportunityDto, 'OpportunityResolvedWebhook'),
  'verification.completed': envelope('verification.completed', VerificationCompletedDataDto, 'VerificationCompletedWebhook'),
  'outcome.finalized': envelope('outcome.finalized', OutcomeFinalizedDataDto, 'OutcomeFinalizedWebhook'),
  'change.detected': envelope('change.detected', ChangeDto, 'ChangeDetectedWebhook'),
  'analysis_run.completed': envelope('analysis_run.completed', AnalysisRunDto, 'AnalysisRunCompletedWebhook'),
  'webhook.test': envelope('webhook.test', WebhookTestDataDto, 'WebhookTestWebhook'),
};
