import { ApiProperty } from '@nestjs/swagger';
import { WEBHOOK_EVENT_CATALOG, WEBHOOK_EVENT_TYPES } from '../domain';

export class WebhookDto {
  @ApiProperty() id!: number;
  @ApiProperty() organizationId!: number;
  @ApiProperty({ type: Number, nullable: true, description: 'Set when created with a client-bound credential: only that client\'s opportunities are sent' }) clientId!: number | null;
  @ApiProperty({ format: 'uri' }) url!: string;
  @ApiProperty({ type: [String], enum: WEBHOOK_EVENT_TYPES }) events!: string[];
  @ApiProperty({ type: String, nullable: true }) description!: string | null;
  @ApiProperty({ type: [String], description: 'Names of the custom headers (values are not shown again)' }) headerNames!: string[];
  @ApiProperty() isActive!: boolean;
  @ApiProperty({ type: String, nullable: true, description: "Why it is inactive: 'gone' (410), 'failing' (only failures for 5 days), 'by request'" }) deactivatedReason!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) deactivatedAt!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'Start of the current run of failures' }) failingSince!: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiProperty({ format: 'date-time' }) updatedAt!: string;
}

export class CreatedWebhookDto extends WebhookDto {
  @ApiProperty({ example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', description: 'The signing secret (Standard Webhooks). Shown once, now; never again.' })
  secret!: string;
}

export class WebhookResponse {
  @ApiProperty({ type: WebhookDto }) data!: WebhookDto;
}
export class CreatedWebhookResponse {
  @ApiProperty({ type: CreatedWebhookDto }) data!: CreatedWebhookDto;
}
class PageMetaDto {
  @ApiProperty() total!: number;
  @ApiProperty() limit!: number;
  @ApiProperty() offset!: number;
  @ApiProperty() hasMore!: boolean;
}
export class WebhookListResponse {
  @ApiProperty({ type: [WebhookDto] }) data!: WebhookDto[];
  @ApiProperty({ type: PageMetaDto }) meta!: PageMetaDto;
}

const catalogText = WEBHOOK_EVENT_TYPES.map((t) => `\`${t}\`: ${WEBHOOK_EVENT_CATALOG[t].description}`).join(' ');

export class EventTypeDto {
  @ApiProperty({ enum: WEBHOOK_EVENT_TYPES }) type!: string;
  @ApiProperty() description!: string;
  @ApiProperty({ type: 'object', additionalProperties: true, description: 'An example body' }) example!: Record<string, unknown>;
}
export class EventTypesResponse {
  @ApiProperty({ type: [String], enum: WEBHOOK_EVENT_TYPES, example: WEBHOOK_EVENT_TYPES, description: `The event types. ${catalogText}` }) data!: string[];
  @ApiProperty({ type: [EventTypeDto], description: 'Each type with its meaning and an example payload' }) details!: EventTypeDto[];
}

export class DeliveryAttemptDto {
  @ApiProperty() attempt!: number;
  @ApiProperty({ format: 'date-time' }) attemptedAt!: string;
  @ApiProperty({ type: Number, nullable: true, description: 'HTTP status; null when no answer (timeout, refused, blocked address)' }) statusCode!: number | null;
  @ApiProperty() durationMs!: number;
  @ApiProperty({ type: String, nullable: true }) error!: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'First 1,024 characters of the response body' }) responseExcerpt!: string | null;
}

export class DeliveryDto {
  @ApiProperty({ format: 'uuid', description: 'Also the `webhook-id` header of every attempt (stable across retries)' }) id!: string;
  @ApiProperty() webhookId!: number;
  @ApiProperty({ format: 'uuid', description: 'The domain event it reports' }) eventId!: string;
  @ApiProperty({ enum: WEBHOOK_EVENT_TYPES }) eventType!: string;
  @ApiProperty({ enum: ['pending', 'succeeded', 'failed', 'cancelled'] }) status!: string;
  @ApiProperty() attemptCount!: number;
  @ApiProperty({ type: Number, nullable: true, description: 'Of the last attempt' }) statusCode!: number | null;
  @ApiProperty({ type: Number, nullable: true, description: 'Of the last attempt' }) durationMs!: number | null;
  @ApiProperty({ type: String, nullable: true, description: 'Of the last attempt' }) error!: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'Of the last attempt' }) responseExcerpt!: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) lastAttemptAt!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) nextAttemptAt!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) completedAt!: string | null;
  @ApiProperty({ type: [DeliveryAttemptDto], description: 'Attempts, newest first (at most 20)' }) attempts!: DeliveryAttemptDto[];
}
export class DeliveryListResponse {
  @ApiProperty({ type: [DeliveryDto] }) data!: DeliveryDto[];
}

class QueuedTestDto {
  @ApiProperty({ format: 'uuid' }) deliveryId!: string;
  @ApiProperty() webhookId!: number;
  @ApiProperty({ example: 'webhook.test' }) eventType!: string;
  @ApiProperty({ example: 'pending' }) status!: string;
}
export class QueuedTestResponse {
  @ApiProperty({ type: QueuedTestDto }) data!: QueuedTestDto;
}

export class DeletedWebhookDto {
  @ApiProperty() id!: number;
  @ApiProperty() deleted!: boolean;
}
export class DeletedWebhookResponse {
  @ApiProperty({ type: DeletedWebhookDto }) data!: DeletedWebhookDto;
}
