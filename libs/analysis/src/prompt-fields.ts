import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMinSize, ArrayUnique, IsArray, IsBoolean, IsIn, IsOptional, IsString, MaxLength, MinLength, ValidateBy, ValidateIf, type ValidationArguments } from 'class-validator';
import { CountryField, LanguageField, Omittable } from '@libs/http';
import { MAX_QUERY_LENGTH, MAX_TAG_LENGTH, MAX_TAGS, MAX_TOPIC_LENGTH, PROVIDERS, queryProblem, tagsProblem, type Provider } from './domain';

/*
 * The request fields that adding and changing a tracked prompt share: the same rules and messages
 * for both (decorators apply bottom-up: the type check runs first).
 */

function rule(name: string, problem: (value: unknown) => string | null): PropertyDecorator {
  return ValidateBy({
    name,
    validator: {
      validate: (value: unknown) => problem(value) === null,
      defaultMessage: (args?: ValidationArguments) => problem(args?.value) ?? name,
    },
  });
}

/** `query`: 1 to 1,000 characters once white space is tidied. */
export function PromptQueryField(required: boolean): PropertyDecorator {
  const doc = { minLength: 1, maxLength: MAX_QUERY_LENGTH, description: 'The question as a user would ask an AI engine (white space is tidied; the same query twice for one brand is 409)', example: 'best CRM for a 10-person agency' };
  return applyDecorators(rule('promptQuery', queryProblem), IsString({ message: 'query must be a string' }), required ? ApiProperty(doc) : ApiPropertyOptional(doc));
}

/** `topic`: optional grouping label, 1 to 200 characters, or null. */
export function PromptTopicField(): PropertyDecorator {
  return applyDecorators(
    MaxLength(MAX_TOPIC_LENGTH, { message: `topic must be at most ${MAX_TOPIC_LENGTH} characters` }),
    MinLength(1, { message: 'topic must not be empty' }),
    IsString({ message: 'topic must be a string or null' }),
    ApiPropertyOptional({ type: String, nullable: true, minLength: 1, maxLength: MAX_TOPIC_LENGTH, example: 'pricing' }),
  );
}

/** `tags`: at most 20 distinct labels of 1 to 50 characters. */
export function PromptTagsField(): PropertyDecorator {
  return applyDecorators(
    rule('promptTags', tagsProblem),
    IsArray({ message: 'tags must be an array of strings' }),
    ApiPropertyOptional({ type: [String], maxItems: MAX_TAGS, description: `At most ${MAX_TAGS} tags of 1 to ${MAX_TAG_LENGTH} characters`, example: ['comparison'] }),
  );
}

/** `providers`: the engines to ask, each at most once (default: all). */
export function PromptProvidersField(): PropertyDecorator {
  return applyDecorators(
    IsIn(PROVIDERS, { each: true, message: `providers must each be one of: ${PROVIDERS.join(', ')}` }),
    ArrayUnique({ message: 'providers must list each provider at most once' }),
    ArrayMinSize(1, { message: 'providers must list at least one provider' }),
    IsArray({ message: 'providers must be an array' }),
    ApiPropertyOptional({ type: [String], enum: PROVIDERS, minItems: 1, description: 'The engines to ask (default: all four)' }),
  );
}

/** `isActive`: inactive prompts are kept but not asked (and do not count towards the 500). */
export function PromptActiveField(): PropertyDecorator {
  return applyDecorators(IsBoolean({ message: 'isActive must be a boolean' }), ApiPropertyOptional({ description: 'Inactive prompts are kept but not asked; at most 500 active prompts a brand', default: true }));
}

/** The fields adding and changing a prompt both take, all optional (topic null clears it). */
export class PromptSettings {
  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @PromptTopicField()
  topic?: string | null;

  @Omittable()
  @PromptTagsField()
  tags?: string[];

  @Omittable()
  @PromptProvidersField()
  providers?: Provider[];

  @Omittable()
  @PromptActiveField()
  isActive?: boolean;

  /** The market (DESIGN §17): part of the prompt's identity; null clears it on a change. */
  @CountryField({ nullable: true, description: 'The country to ask for (ISO 3166-1 alpha-2, any case; stored upper case); null or omitted: the providers’ default. The same query in two markets is two prompts.' })
  country?: string | null;

  @LanguageField({ nullable: true, description: 'The language to ask in (BCP 47, e.g. de or pt-BR; stored in canonical case); null or omitted: the providers’ default' })
  language?: string | null;
}
