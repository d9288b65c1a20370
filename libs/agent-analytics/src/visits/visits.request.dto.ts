import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';
import { AgentDaysQuery, BotNameQuery, LimitQuery, PageOffset } from '../agent-queries';

/** `days`, `botName`, `url` (a pattern with `*`), and a page (limit 1-200, default 50). */
export class VisitsQuery extends AgentDaysQuery {
  @BotNameQuery()
  botName?: string;

  @ApiPropertyOptional({
    description: 'A path or URL pattern, `*` for any characters: `/blog/*`, `/pricing`, `https://docs.acme.example/*`; matched against the path with its query (and the host for a URL)',
    maxLength: 2048,
    example: '/blog/*',
  })
  @IsOptional()
  @IsString({ message: 'url must be a string' })
  @MaxLength(2048, { message: 'url must be at most 2048 characters' })
  url?: string;

  @LimitQuery(200, 50)
  limit: number = 50;

  @PageOffset()
  offset: number = 0;
}
