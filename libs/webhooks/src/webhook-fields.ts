import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { applyDecorators } from '@nestjs/common';
import { ArrayMaxSize, ArrayMinSize, ArrayUnique, IsArray, IsIn, IsString, IsUrl, MaxLength, ValidateBy, type ValidationArguments } from 'class-validator';
import { WEBHOOK_EVENT_TYPES, headerProblems } from './domain';

/*
 * The request fields that creating and changing a subscription share: the same rules and messages
 * for both. Each composite lists its decorators in the order they apply (a property's decorators
 * apply bottom-up), so validation runs exactly as if they were written on the property.
 */
const URL_OPTIONS = { protocols: ['http', 'https'], require_protocol: true, require_tld: false, require_host: true, allow_underscores: true };
const URL_MESSAGE = 'url must be an http or https URL';
const EVENTS_MESSAGE = `events must each be one of: ${WEBHOOK_EVENT_TYPES.join(', ')}`;

/** `url`: http or https, at most 2,048 characters (the address check happens in the handler). */
export function WebhookUrlField(required: boolean): PropertyDecorator {
  return applyDecorators(
    IsUrl(URL_OPTIONS, { message: URL_MESSAGE }),
    MaxLength(2048, { message: 'url must be at most 2048 characters' }),
    IsString({ message: URL_MESSAGE }),
    required
      ? ApiProperty({ format: 'uri', maxLength: 2048, example: 'https://hooks.example.com/ai-visibility', description: 'http or https; must resolve to a public address' })
      : ApiPropertyOptional({ format: 'uri', maxLength: 2048 }),
  );
}

/** `events`: one or more distinct webhook event types. */
export function WebhookEventsField(required: boolean): PropertyDecorator {
  return applyDecorators(
    IsIn(WEBHOOK_EVENT_TYPES, { each: true, message: EVENTS_MESSAGE }),
    ArrayUnique({ message: 'events must list each event type at most once' }),
    ArrayMaxSize(WEBHOOK_EVENT_TYPES.length, { message: 'events must list each event type at most once' }),
    ArrayMinSize(1, { message: 'events must list at least one event type' }),
    IsArray({ message: 'events must be an array of event types' }),
    required
      ? ApiProperty({ type: [String], enum: WEBHOOK_EVENT_TYPES, minItems: 1, example: ['opportunity.opened', 'opportunity.resolved'] })
      : ApiPropertyOptional({ type: [String], enum: WEBHOOK_EVENT_TYPES, minItems: 1 }),
  );
}

/** `description`: at most 500 characters. */
export function WebhookDescriptionField(): PropertyDecorator {
  return applyDecorators(MaxLength(500, { message: 'description must be at most 500 characters' }), IsString({ message: 'description must be a string' }));
}

/** A map of extra headers: bounded in number and size, sane names and values, none of the service's own. */
export function IsWebhookHeaders() {
  return ValidateBy({
    name: 'isWebhookHeaders',
    validator: {
      validate: (value: unknown) => headerProblems(value).length === 0,
      defaultMessage: (args?: ValidationArguments) => headerProblems(args?.value).join('; '),
    },
  });
}
