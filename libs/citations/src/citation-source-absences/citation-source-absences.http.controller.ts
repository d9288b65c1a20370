import { Controller, Get, Query } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScope, type Principal } from '@libs/auth';
import { CITATION_SOURCE_ABSENCES_EXAMPLE } from './citation-source-absences.example';
import { CitationSourceAbsencesQuery } from './citation-source-absences.request.dto';
import { CitationSourceAbsencesResponse } from './citation-source-absences.response.dto';
import { CitationSourceAbsences } from './citation-source-absences.query';

@ApiTags('Citation sources')
@Controller('api/v1/citation-sources')
export class CitationSourceAbsencesController {
  constructor(private readonly citationSourceAbsences: CitationSourceAbsences) {}

  @Get('absences')
  @RequireScope('read:citation-sources')
  @ApiOperation({
    operationId: 'citation_sources_absences',
    summary:
      'Domains cited in answers that mention a competitor and not the brand, ranked by consensus score × competitor density (scaled 0-100; scores under minScore dropped), naming the competitors and the prompts (DESIGN §14). Domains of the brand itself are not absences.',
  })
  @ApiOkResponse({ type: CitationSourceAbsencesResponse, example: CITATION_SOURCE_ABSENCES_EXAMPLE })
  @ApiNotFoundResponse({ description: 'No brand the caller may see has this id' })
  absences(@CurrentPrincipal() p: Principal, @Query() q: CitationSourceAbsencesQuery): Promise<CitationSourceAbsencesResponse> {
    return this.citationSourceAbsences.read(p, q);
  }
}
