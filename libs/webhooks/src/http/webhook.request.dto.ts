import { ApiProperty, ApiPropertyOptional, PickType } from '@nestjs/swagger';
import { PaginationQuery } from '@libs/http';
import {
  ArrayMaxSize, ArrayMinSize, ArrayUnique, IsArray, IsBoolean, IsIn, IsOptional, IsString, IsUrl, MaxLength, ValidateBy, ValidateIf,
  type ValidationArguments,
} from 'class-validator';
import { MAX_HEADERS, WEBHOOK_EVENT_TYPES, headerProblems, type WebhookEventType } from '../domain';

/** Validated when sent: a PATCH field may be left out, but null is refused (it would clear a required field). */
const present = (_: object, value: unknown) => value !== undefined;

const URL_OPTIONS = { protocols: ['http', 'https'], require_protocol: true, require_tld: false, require_host: true, allow_underscores: true };
const URL_MESSAGE = 'url must be an http or https URL';
const EVENTS_MESSAGE = `events must each be one of: ${WEBHOOK_EVENT_TYPES.join(', ')}`;

/** A map of extra headers: bounded in number and size, sane names and values, none of the service's own. */
function IsWebhookHeaders() {
  return ValidateBy({
    name: 'isWebhookHeaders',
    validator: {
      validate: (value: unknown) => headerProblems(value).length === 0,
      defaultMessage: (args?: ValidationArguments) => headerProblems(args?.value).join('; '),
    },
  });
}

export class CreateWebhookRequest {
  @ApiProperty({ format: 'uri', maxLength: 2048, example: 'https://hooks.example.com/ai-visibility', description: 'http or https; must resolve to a public address' })
  @IsString({ message: URL_MESSAGE })
  @MaxLength(2048, { message: 'url must be at most 2048 characters' })
  @IsUrl(URL_OPTIONS, { message: URL_MESSAGE })
  url!: string;

  @ApiProperty({ type: [String], enum: WEBHOOK_EVENT_TYPES, minItems: 1, example: ['opportunity.opened', 'opportunity.resolved'] })
  @IsArray({ message: 'events must be an array of event types' })
  @ArrayMinSize(1, { message: 'events must list at least one event type' })
  @ArrayMaxSize(WEBHOOK_EVENT_TYPES.length, { message: 'events must list each event type at most once' })
  @ArrayUnique({ message: 'events must list each event type at most once' })
  @IsIn(WEBHOOK_EVENT_TYPES, { each: true, message: EVENTS_MESSAGE })
  events!: WebhookEventType[];

  @ApiPropertyOptional({ maxLength: 500 })
  @IsOptional()
  @IsString({ message: 'description must be a string' })
  @MaxLength(500, { message: 'description must be at most 500 characters' })
  description?: string;

  @ApiPropertyOptional({ default: true })
  @IsOptional()
  @IsBoolean({ message: 'isActive must be a boolean' })
  isActive?: boolean;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'string', maxLength: 1024 },
    maxProperties: MAX_HEADERS,
    description: `Extra headers sent with every delivery (create only; at most ${MAX_HEADERS}). The signature headers (webhook-*) and content headers cannot be set. Their values are never shown again.`,
    example: { Authorization: 'Bearer 6f1d…' },
  })
  @IsOptional()
  @IsWebhookHeaders()
  headers?: Record<string, string>;
}

/** PATCH: url, events, description, isActive; the secret and the headers cannot be changed. */
export class UpdateWebhookRequest {
  @ApiPropertyOptional({ format: 'uri', maxLength: 2048 })
  @ValidateIf(present)
  @IsString({ message: URL_MESSAGE })
  @MaxLength(2048, { message: 'url must be at most 2048 characters' })
  @IsUrl(URL_OPTIONS, { message: URL_MESSAGE })
  url?: string;

  @ApiPropertyOptional({ type: [String], enum: WEBHOOK_EVENT_TYPES, minItems: 1 })
  @ValidateIf(present)
  @IsArray({ message: 'events must be an array of event types' })
  @ArrayMinSize(1, { message: 'events must list at least one event type' })
  @ArrayMaxSize(WEBHOOK_EVENT_TYPES.length, { message: 'events must list each event type at most once' })
  @ArrayUnique({ message: 'events must list each event type at most once' })
  @IsIn(WEBHOOK_EVENT_TYPES, { each: true, message: EVENTS_MESSAGE })
  events?: WebhookEventType[];

  @ApiPropertyOptional({ type: String, maxLength: 500, nullable: true })
  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsString({ message: 'description must be a string' })
  @MaxLength(500, { message: 'description must be at most 500 characters' })
  description?: string | null;

  @ApiPropertyOptional({ description: 'false pauses deliveries; true re-activates a deactivated subscription' })
  @ValidateIf(present)
  @IsBoolean({ message: 'isActive must be a boolean' })
  isActive?: boolean;
}

/** Deliveries take `limit` only (newest first), with the list's bounds. */
export class DeliveriesQuery extends PickType(PaginationQuery, ['limit'] as const) {}
