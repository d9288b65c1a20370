import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean } from 'class-validator';
import { Omittable } from '@libs/http';
import { MAX_HEADERS, type WebhookEventType } from '../domain';
import { IsWebhookHeaders, WebhookDescriptionField, WebhookEventsField, WebhookUrlField } from '../webhook-fields';

export class CreateWebhookRequest {
  @WebhookUrlField(true)
  url!: string;

  @WebhookEventsField(true)
  events!: WebhookEventType[];

  @ApiPropertyOptional({ maxLength: 500 })
  @Omittable()
  @WebhookDescriptionField()
  description?: string;

  @ApiPropertyOptional({ default: true })
  @Omittable()
  @IsBoolean({ message: 'isActive must be a boolean' })
  isActive?: boolean;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'string', maxLength: 1024 },
    maxProperties: MAX_HEADERS,
    description: `Extra headers sent with every delivery (create only; at most ${MAX_HEADERS}). The signature headers (webhook-*) and content headers cannot be set. Their values are never shown again.`,
    example: { Authorization: 'Bearer 6f1d…' },
  })
  @Omittable()
  @IsWebhookHeaders()
  headers?: Record<string, string>;
}
