import { ApiProperty } from '@nestjs/swagger';
import { WEBHOOK_EVENT_DESCRIPTIONS, WEBHOOK_EVENT_TYPES } from '../domain';

const catalogText = WEBHOOK_EVENT_TYPES.map((t) => `\`${t}\`: ${WEBHOOK_EVENT_DESCRIPTIONS[t]}`).join(' ');

export class EventTypeDto {
  @ApiProperty({ enum: WEBHOOK_EVENT_TYPES }) type!: string;
  @ApiProperty() description!: string;
  @ApiProperty({ type: 'object', additionalProperties: true, description: 'An example body (its schema: the OpenAPI document\'s webhooks section)' }) example!: Record<string, unknown>;
}
export class EventTypesResponse {
  @ApiProperty({ type: [String], enum: WEBHOOK_EVENT_TYPES, example: WEBHOOK_EVENT_TYPES, description: `The event types. ${catalogText}` }) data!: string[];
  @ApiProperty({ type: [EventTypeDto], description: 'Each type with its meaning and an example payload' }) details!: EventTypeDto[];
}
