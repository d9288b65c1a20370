import { ApiProperty } from '@nestjs/swagger';
import { RateDto } from '@libs/http';
import { CrawlBlockDto } from '../agent-analytics.dto';
import { BOT_CATEGORIES } from '../domain/bot-catalogue';

export class BotSummaryDto {
  @ApiProperty({ example: 'GPTBot' }) botName!: string;
  @ApiProperty({ example: 'OpenAI' }) operator!: string;
  @ApiProperty({ enum: BOT_CATEGORIES, example: 'training' }) category!: string;
  @ApiProperty({ type: 'integer', example: 420 }) visits!: number;
  @ApiProperty({ type: 'integer', example: 400 }) verifiedVisits!: number;
  @ApiProperty({ type: 'integer', example: 20 }) spoofedVisits!: number;
  @ApiProperty({ type: 'integer', example: 0 }) unverifiableVisits!: number;
  @ApiProperty({ type: RateDto, description: 'Verified visits / visits' }) verifiedShare!: RateDto;
  @ApiProperty({ enum: ['verified', 'spoofed', 'unverifiable'], description: 'The status of most of its visits', example: 'verified' }) verification!: string;
  @ApiProperty({ type: 'string', format: 'date-time', example: '2026-11-24T08:15:02.114Z' }) lastSeen!: string;
  @ApiProperty({ type: CrawlBlockDto, description: 'The crawl_block signal of this agent over the site' }) crawlBlock!: CrawlBlockDto;
}

export class BotsResponse {
  @ApiProperty({ type: [BotSummaryDto] }) data!: BotSummaryDto[];
}
