import { ApiProperty } from '@nestjs/swagger';
import { CHANNEL_KINDS } from './domain';

/** What every daily channel row starts with: its day, channel and owners. */
export class DailyRowDto {
  @ApiProperty({ type: 'string', format: 'date', example: '2026-11-23' }) date!: string;
  @ApiProperty({ enum: CHANNEL_KINDS, description: 'The kind of the channel the row comes from' }) channel!: string;
  @ApiProperty({ type: 'integer' }) channelId!: number;
  @ApiProperty({ type: 'integer' }) clientId!: number;
  @ApiProperty({ type: 'integer', nullable: true, description: 'The brand whose domain or GA4 property the row comes from; null when no brand of the client owns it' }) brandId!: number | null;
}

/** A figure of a daily row: a number, or null where the channel has no such figure (never 0 for "unknown"). */
export const Figure = (description: string) => ApiProperty({ type: 'number', nullable: true, description });
