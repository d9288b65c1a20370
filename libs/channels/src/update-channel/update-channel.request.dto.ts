import { ApiPropertyOptional, PartialType, PickType } from '@nestjs/swagger';
import { IsInt, Max, Min, ValidateIf } from 'class-validator';
import { ChannelSettings } from '../channel-settings.dto';

/**
 * The fields a channel's owner may change; kind and client are fixed. Each may be left out, but only
 * `brandId` takes null (it detaches the brand): the others have no "none" (`skipNullProperties:
 * false` keeps null under the field's own rules, where PartialType would let it through unchecked).
 */
export class UpdateChannelRequest extends PartialType(PickType(ChannelSettings, ['name', 'propertyId', 'siteUrl', 'credentials', 'backfillDays', 'isActive'] as const), { skipNullProperties: false }) {
  @ApiPropertyOptional({ type: 'integer', minimum: 1, nullable: true, description: "The client's brand the rows belong to; null for none" })
  @ValidateIf((_o: object, v: unknown) => v !== undefined && v !== null)
  @IsInt({ message: 'brandId must be a positive integer or null' })
  @Min(1, { message: 'brandId must be a positive integer or null' })
  @Max(Number.MAX_SAFE_INTEGER, { message: 'brandId must be a positive integer or null' })
  brandId?: number | null;
}
