import { ApiProperty } from '@nestjs/swagger';
import { PROVIDERS, RateDto, SeriesPointDto } from '@libs/http';

/** A mean with its n (DESIGN §14): null when n = 0. */
export class MeanDto {
  @ApiProperty({ type: 'number', nullable: true }) value!: number | null;
  @ApiProperty({ type: 'integer', minimum: 0 }) n!: number;
}

export class EntityDto {
  @ApiProperty({ example: 'brand-12', description: 'brand-<id> or competitor-<id>' }) id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ enum: ['brand', 'competitor'] }) kind!: 'brand' | 'competitor';
}

/** A share-of-voice entry (DESIGN §14). */
export class SovEntryDto {
  @ApiProperty({ type: String, enum: PROVIDERS, nullable: true, description: 'null: all providers together' }) provider!: string | null;
  @ApiProperty({ type: EntityDto }) entity!: EntityDto;
  @ApiProperty({ type: 'integer' }) mentions!: number;
  @ApiProperty({ type: 'number', nullable: true, description: "mentions / all tracked entities' mentions in the same answers; null when none is mentioned" }) shareOfVoice!: number | null;
  @ApiProperty({ type: RateDto }) mentionRate!: RateDto;
}

export class PeriodDto {
  @ApiProperty({ type: 'string', format: 'date' }) startDate!: string;
  @ApiProperty({ type: 'string', format: 'date' }) endDate!: string;
}

export { RateDto, SeriesPointDto };
