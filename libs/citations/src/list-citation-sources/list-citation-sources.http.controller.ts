import { Controller, Get, Query } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScope, type Principal } from '@libs/auth';
import { LIST_CITATION_SOURCES_EXAMPLE } from './list-citation-sources.example';
import { ListCitationSourcesQuery } from './list-citation-sources.request.dto';
import { ListCitationSources } from './list-citation-sources.query';
import { CitationSourcePage } from './list-citation-sources.response.dto';

@ApiTags('Citations')
@Controller('api/v1/citations')
export class ListCitationSourcesController {
  constructor(private readonly listCitationSources: ListCitationSources) {}

  @Get('sources')
  @RequireScope('read:citations')
  @ApiOperation({ operationId: 'citations_sources', summary: "The URLs cited in the brand's answers over the period (default the last 30 days), with how often and by which providers; filters provider, domain, owner, prompt, topic" })
  @ApiOkResponse({ type: CitationSourcePage, example: LIST_CITATION_SOURCES_EXAMPLE })
  @ApiNotFoundResponse({ description: 'No brand the caller may see has this id' })
  list(@CurrentPrincipal() p: Principal, @Query() q: ListCitationSourcesQuery): Promise<CitationSourcePage> {
    return this.listCitationSources.read(p, q);
  }
}
