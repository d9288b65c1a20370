import { ApiProperty } from '@nestjs/swagger';
import { PageOf } from '@libs/http';
import { DailyRowDto, Figure as n } from '../daily-row.dto';

/** An audience's day on a channel (GA4 audiences). */
export class AudienceRowDto extends DailyRowDto {
  @ApiProperty({ example: 'Purchasers' }) audience!: string;
  @n('Sessions') sessions!: number | null;
  @n('Users') users!: number | null;
  @n('New users') newUsers!: number | null;
  @n('Conversions (key events)') conversions!: number | null;
  @n('Revenue') revenue!: number | null;
}

export class AudiencePage extends PageOf(AudienceRowDto) {}
