import { ApiProperty } from '@nestjs/swagger';
import { WEBHOOK_EVENT_TYPES } from '../domain';

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
