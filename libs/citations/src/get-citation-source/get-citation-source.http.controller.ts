import { Controller, Get, Param } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScope, type Principal } from '@libs/auth';
import { ParseIdPipe } from '@libs/http';
import { GET_CITATION_SOURCE_EXAMPLE } from './get-citation-source.example';
import { CitationSourceResponse } from './get-citation-source.response.dto';
import { GetCitationSource } from './get-citation-source.query';

@ApiTags('Citations')
@Controller('api/v1/citations')
export class GetCitationSourceController {
  constructor(private readonly getCitationSource: GetCitationSource) {}

  @Get('sources/:id')
  @RequireScope('read:citations')
  @ApiOperation({ operationId: 'citations_source', summary: 'One cited URL: its domain, title, owner, how often and by which providers it is cited, for which prompts, first and last seen (all its history)' })
  @ApiParam({ name: 'id', type: 'integer', description: 'The citation source (a cited URL of a brand)' })
  @ApiOkResponse({ type: CitationSourceResponse, example: GET_CITATION_SOURCE_EXAMPLE })
  @ApiNotFoundResponse({ description: "No such citation source, or another organisation's (or another client's)" })
  get(@CurrentPrincipal() p: Principal, @Param('id', ParseIdPipe) id: number): Promise<CitationSourceResponse> {
    return this.getCitationSource.read(p, id);
  }
}
