import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsOptional, ValidateIf } from 'class-validator';
import { Omittable } from '@libs/http';
import type { WebhookEventType } from '../domain';
import { WebhookDescriptionField, WebhookEventsField, WebhookUrlField } from '../webhook-fields';

/** PATCH: url, events, description, isActive; the secret and the headers cannot be changed. */
export class UpdateWebhookRequest {
  @Omittable()
  @WebhookUrlField(false)
  url?: string;

  @Omittable()
  @WebhookEventsField(false)
  events?: WebhookEventType[];

  @ApiPropertyOptional({ type: String, maxLength: 500, nullable: true })
  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @WebhookDescriptionField()
  description?: string | null;

  @ApiPropertyOptional({ description: 'false pauses deliveries; true re-activates a deactivated subscription' })
  @Omittable()
  @IsBoolean({ message: 'isActive must be a boolean' })
  isActive?: boolean;
}
