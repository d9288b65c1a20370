import { ApiProperty } from '@nestjs/swagger';
import { RateDto } from '@libs/http';
import { BOT_CATEGORIES } from './domain/bot-catalogue';

const VERIFICATIONS = ['verified', 'spoofed', 'unverifiable'];

/** One request of an AI agent to the site, as stored. */
export class BotVisitDto {
  @ApiProperty({ type: 'string', format: 'date-time', example: '2026-11-24T08:15:02.114Z' }) timestamp!: string;
  @ApiProperty({ example: 'GPTBot' }) botName!: string;
  @ApiProperty({ example: 'OpenAI' }) operator!: string;
  @ApiProperty({ enum: BOT_CATEGORIES, example: 'training' }) category!: string;
  @ApiProperty({ enum: VERIFICATIONS, example: 'verified', description: 'verified (published ranges, reverse DNS or Web Bot Auth), spoofed (a checkable claim that failed), unverifiable (the operator publishes no means)' }) verification!: string;
  @ApiProperty({ type: 'string', nullable: true, enum: ['ip-range', 'fcrdns', 'web-bot-auth'], example: 'ip-range' }) verifiedBy!: string | null;
  @ApiProperty({ type: 'integer', nullable: true, description: 'The brand whose domain is the host', example: 7 }) brandId!: number | null;
  @ApiProperty({ example: 'www.acme.example' }) host!: string;
  @ApiProperty({ example: '/pricing?plan=pro' }) path!: string;
  @ApiProperty({ example: 'https://www.acme.example/pricing?plan=pro' }) url!: string;
  @ApiProperty({ example: 'GET' }) method!: string;
  @ApiProperty({ type: 'integer', example: 200 }) status!: number;
  @ApiProperty({ example: '20.171.206.12' }) ip!: string;
  @ApiProperty({ example: 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)' }) userAgent!: string;
  @ApiProperty({ type: 'string', nullable: true, example: null }) referer!: string | null;
  @ApiProperty({ type: 'integer', nullable: true, example: 5120 }) bytes!: number | null;
  @ApiProperty({ type: 'integer', nullable: true, example: 42 }) durationMs!: number | null;
  @ApiProperty({ type: 'boolean', nullable: true, description: "Whether the site's robots.txt disallows this page to the agent (null: unknown)", example: false }) robotsDisallowed!: boolean | null;
}

/** The crawl_block signal (DESIGN §13.4): answers 4xx/5xx and robots.txt disallows, each a rate over the visits. */
export class CrawlBlockDto {
  @ApiProperty({ type: RateDto, description: 'Visits answered 4xx or 5xx / visits' }) errorShare!: RateDto;
  @ApiProperty({ type: RateDto, description: "Visits to pages the site's robots.txt disallows to the agent / visits" }) disallowedShare!: RateDto;
  @ApiProperty({ type: 'integer', description: 'Visits answered 4xx or 5xx' }) errorVisits!: number;
  @ApiProperty({ type: 'integer', description: 'Visits to disallowed pages' }) disallowedVisits!: number;
}

export const BOT_VISIT_EXAMPLE = {
  timestamp: '2026-11-24T08:15:02.114Z',
  botName: 'GPTBot',
  operator: 'OpenAI',
  category: 'training',
  verification: 'verified',
  verifiedBy: 'ip-range',
  brandId: 7,
  host: 'www.acme.example',
  path: '/pricing',
  url: 'https://www.acme.example/pricing',
  method: 'GET',
  status: 200,
  ip: '20.171.206.12',
  userAgent: 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)',
  referer: null,
  bytes: 5120,
  durationMs: 42,
  robotsDisallowed: false,
};
