import { ApiProperty } from '@nestjs/swagger';
import { WEBHOOK_EVENT_TYPES } from './domain';

/** A subscription as every webhook endpoint returns it (never its secret). */
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

export class WebhookResponse {
  @ApiProperty({ type: WebhookDto }) data!: WebhookDto;
}
