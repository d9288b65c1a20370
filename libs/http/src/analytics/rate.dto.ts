import { ApiProperty } from '@nestjs/swagger';

/** A rate (DESIGN §14): value, its denominator and the 95 % Wilson interval; null values when n = 0. */
export class RateDto {
  @ApiProperty({ type: 'number', nullable: true, minimum: 0, maximum: 1, description: 'k / n; null when n = 0' }) value!: number | null;
  @ApiProperty({ type: 'integer', minimum: 0, description: 'The denominator' }) n!: number;
  @ApiProperty({ type: 'number', nullable: true, minimum: 0, maximum: 1, description: 'Lower bound of the 95 % Wilson interval' }) low!: number | null;
  @ApiProperty({ type: 'number', nullable: true, minimum: 0, maximum: 1, description: 'Upper bound of the 95 % Wilson interval' }) high!: number | null;
}

/** One day of a daily series (UTC); a day without answers is present with n: 0 and null values. */
export class SeriesPointDto {
  @ApiProperty({ type: 'string', format: 'date', example: '2026-01-31' }) date!: string;
  @ApiProperty({ type: 'number', nullable: true, description: 'The day’s figure; null when n = 0' }) value!: number | null;
  @ApiProperty({ type: 'integer', minimum: 0 }) n!: number;
  @ApiProperty({ type: 'number', nullable: true, description: 'Lower bound of the 95 % interval, when the figure is a rate' }) low!: number | null;
  @ApiProperty({ type: 'number', nullable: true, description: 'Upper bound of the 95 % interval, when the figure is a rate' }) high!: number | null;
}
