import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsIn, IsInt, IsNumber, IsOptional, IsString, Max, MaxLength, Min, MinLength, ValidateIf, ValidateNested } from 'class-validator';
import { Omittable } from '@libs/http';

export class StartingPriceDto {
  @ApiProperty({ minimum: 0, maximum: 1000000, example: 12 })
  @Max(1_000_000, { message: 'startingPrice.amount must be from 0 to 1000000' })
  @Min(0, { message: 'startingPrice.amount must be from 0 to 1000000' })
  @IsNumber({ allowNaN: false, allowInfinity: false }, { message: 'startingPrice.amount must be a number' })
  amount!: number;

  @ApiProperty({ enum: ['USD', 'EUR', 'GBP'] })
  @IsIn(['USD', 'EUR', 'GBP'], { message: 'startingPrice.currency must be USD, EUR or GBP' })
  currency!: 'USD' | 'EUR' | 'GBP';
}

/** PUT replaces the facts: a field left out or null is not registered. */
export class BrandFactsDto {
  @ApiPropertyOptional({ type: 'integer', nullable: true, minimum: 1800, maximum: 2100, example: 2012 })
  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @Max(2100, { message: 'foundedYear must be a year from 1800 to 2100' })
  @Min(1800, { message: 'foundedYear must be a year from 1800 to 2100' })
  @IsInt({ message: 'foundedYear must be a year from 1800 to 2100' })
  foundedYear?: number | null;

  @ApiPropertyOptional({ type: StartingPriceDto, nullable: true })
  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @ValidateNested()
  @Type(() => StartingPriceDto)
  startingPrice?: StartingPriceDto | null;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 200, example: 'Berlin, Germany' })
  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @MaxLength(200, { message: 'headquarters must be 1 to 200 characters' })
  @MinLength(1, { message: 'headquarters must be 1 to 200 characters' })
  @IsString({ message: 'headquarters must be a string' })
  headquarters?: string | null;

  @ApiPropertyOptional({ type: [String], maxItems: 50 })
  @Omittable()
  @MaxLength(200, { each: true, message: 'productNames must each be 1 to 200 characters' })
  @MinLength(1, { each: true, message: 'productNames must each be 1 to 200 characters' })
  @IsString({ each: true, message: 'productNames must be strings' })
  @ArrayMaxSize(50, { message: 'productNames must list at most 50 names' })
  @IsArray({ message: 'productNames must be an array of strings' })
  productNames?: string[];
}

export class BrandFactsRecordDto {
  @ApiProperty({ type: 'integer' }) brandId!: number;
  @ApiProperty({ type: BrandFactsDto }) facts!: BrandFactsDto;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) updatedAt!: string | null;
}

export class BrandFactsResponse {
  @ApiProperty({ type: BrandFactsRecordDto }) data!: BrandFactsRecordDto;
}
