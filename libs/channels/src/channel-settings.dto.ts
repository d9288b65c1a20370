import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsInt, IsObject, IsString, Matches, Max, MaxLength, Min, MinLength } from 'class-validator';
import { Omittable } from '@libs/http';
import { MAX_BACKFILL_DAYS, PROPERTY_ID, SITE_URL } from './channel-fields';

const id = (field: string) => `${field} must be a positive integer`;

/** The settings of a channel a request may give (create: name required; update: any of them). */
export class ChannelSettings {
  @ApiProperty({ minLength: 1, maxLength: 200, example: 'Acme GA4' })
  @IsString({ message: 'name must be a string' })
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value))
  @MinLength(1, { message: 'name must not be empty' })
  @MaxLength(200, { message: 'name must be at most 200 characters' })
  name!: string;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, example: 7, description: "The client's brand the rows belong to when they name none" })
  @Omittable()
  @IsInt({ message: id('brandId') })
  @Min(1, { message: id('brandId') })
  @Max(Number.MAX_SAFE_INTEGER, { message: id('brandId') })
  brandId?: number;

  @ApiPropertyOptional({ example: '123456789', description: 'GA4 property id (digits); required for ga4' })
  @Omittable()
  @IsString({ message: 'propertyId must be a string' })
  @Matches(PROPERTY_ID, { message: 'propertyId must be a GA4 property id (digits)' })
  propertyId?: string;

  @ApiPropertyOptional({ example: 'sc-domain:acme.example', description: 'Search Console property, `https://host/` or `sc-domain:host`; required for search_console' })
  @Omittable()
  @IsString({ message: 'siteUrl must be a string' })
  @Matches(SITE_URL, { message: 'siteUrl must be https://host/ or sc-domain:host' })
  siteUrl?: string;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description: 'The service-account key (Google JSON key file: client_email, private_key, private_key_id); required for ga4 and search_console. Stored encrypted, never returned.',
    example: { client_email: 'sync@project.iam.gserviceaccount.com', private_key: '-----BEGIN PRIVATE KEY-----\n…\n-----END PRIVATE KEY-----\n', private_key_id: 'a1b2c3' },
  })
  @Omittable()
  @IsObject({ message: 'credentials must be a service-account key object' })
  credentials?: Record<string, unknown>;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: MAX_BACKFILL_DAYS, default: 30, description: 'Days fetched on the first sync' })
  @Omittable()
  @IsInt({ message: `backfillDays must be an integer from 1 to ${MAX_BACKFILL_DAYS}` })
  @Min(1, { message: `backfillDays must be an integer from 1 to ${MAX_BACKFILL_DAYS}` })
  @Max(MAX_BACKFILL_DAYS, { message: `backfillDays must be an integer from 1 to ${MAX_BACKFILL_DAYS}` })
  backfillDays?: number;

  @ApiPropertyOptional({ default: true })
  @Omittable()
  @IsBoolean({ message: 'isActive must be a boolean' })
  isActive?: boolean;
}
