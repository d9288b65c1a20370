import { ApiProperty } from '@nestjs/swagger';
import { CrawlBlockDto } from '../agent-analytics.dto';

export class PageBotDto {
  @ApiProperty({ example: 'GPTBot' }) botName!: string;
  @ApiProperty({ type: 'integer', example: 12 }) visits!: number;
  @ApiProperty({ type: CrawlBlockDto, description: 'The crawl_block signal of this agent on this page' }) crawlBlock!: CrawlBlockDto;
}

export class CrawledPageDto {
  @ApiProperty({ example: 'www.acme.example' }) host!: string;
  @ApiProperty({ description: 'The path without its query', example: '/pricing' }) path!: string;
  @ApiProperty({ type: 'integer', example: 31 }) visits!: number;
  @ApiProperty({ type: CrawlBlockDto }) crawlBlock!: CrawlBlockDto;
  @ApiProperty({ type: [PageBotDto], description: 'Per agent, most visits first' }) bots!: PageBotDto[];
}

export class PagesResponse {
  @ApiProperty({ type: [CrawledPageDto] }) data!: CrawledPageDto[];
}
