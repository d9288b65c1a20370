import { ApiProperty } from '@nestjs/swagger';
import { PageOf } from '@libs/http';
import { DailyRowDto, Figure as n } from '../daily-row.dto';

/** A page's day on a channel: a GA4 landing page, or a Search Console page and query. */
export class ContentRowDto extends DailyRowDto {
  @ApiProperty({ example: 'https://acme.example/pricing', description: 'Landing page (GA4: its path) or page URL (Search Console)' }) page!: string;
  @ApiProperty({ type: 'string', nullable: true, description: 'The search query (Search Console); null for a landing page' }) query!: string | null;
  @n('Sessions (ga4)') sessions!: number | null;
  @n('Page views (ga4)') pageviews!: number | null;
  @n('Conversions (ga4 key events)') conversions!: number | null;
  @n('Revenue (ga4)') revenue!: number | null;
  @n('Search clicks (search_console)') clicks!: number | null;
  @n('Search impressions (search_console)') impressions!: number | null;
  @n('Average search position (search_console)') position!: number | null;
}

export class ContentPage extends PageOf(ContentRowDto) {}
