import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsOptional, ValidateIf } from 'class-validator';
import type { WebhookEventType } from '../domain';
import { WebhookDescriptionField, WebhookEventsField, WebhookUrlField, present } from '../webhook-fields';

/** PATCH: url, events, description, isActive; the secret and the headers cannot be changed. */
export class UpdateWebhookRequest {
  @ValidateIf(present)
  @WebhookUrlField(false)
  url?: string;

  @ValidateIf(present)
  @WebhookEventsField(false)
  events?: WebhookEventType[];

  @ApiPropertyOptional({ type: String, maxLength: 500, nullable: true })
  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @WebhookDescriptionField()
  description?: string | null;

  @ApiPropertyOptional({ description: 'false pauses deliveries; true re-activates a deactivated subscription' })
  @ValidateIf(present)
  @IsBoolean({ message: 'isActive must be a boolean' })
  isActive?: boolean;
}
