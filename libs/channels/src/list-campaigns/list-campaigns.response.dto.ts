import { ApiProperty } from '@nestjs/swagger';
import { PageOf } from '@libs/http';
import { DailyRowDto, Figure as n } from '../daily-row.dto';

/** A campaign's day on a channel (GA4 session campaign, source and medium). */
export class CampaignRowDto extends DailyRowDto {
  @ApiProperty({ example: 'spring_sale' }) campaign!: string;
  @ApiProperty({ example: 'newsletter' }) source!: string;
  @ApiProperty({ example: 'email' }) medium!: string;
  @n('Sessions') sessions!: number | null;
  @n('Users') users!: number | null;
  @n('Conversions (key events)') conversions!: number | null;
  @n('Revenue') revenue!: number | null;
}

export class CampaignPage extends PageOf(CampaignRowDto) {}
