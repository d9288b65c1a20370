import { Module } from '@nestjs/common';
import { AnalysisModule } from '@libs/analysis';
import { TenancyModule } from '@libs/tenancy';
import { ChangeSummaryController } from './change-summary/change-summary.http.controller';
import { CitationSourceAbsencesController } from './citation-source-absences/citation-source-absences.http.controller';
import { CitationTrendsController } from './citation-trends/citation-trends.http.controller';
import { GetCitationSourceController } from './get-citation-source/get-citation-source.http.controller';
import { ListChangesController } from './list-changes/list-changes.http.controller';
import { ListCitationSourcesController } from './list-citation-sources/list-citation-sources.http.controller';
import { AnswerDiscoveries } from './prompt-discoveries/answer-discoveries';
import { DISCOVERY_SOURCES } from './prompt-discoveries/discovery-source';
import { PromptDiscoveriesController } from './prompt-discoveries/prompt-discoveries.http.controller';
import { SearchConsoleDiscoveries } from './prompt-discoveries/search-console-discoveries';
import { PromptGapsController } from './prompt-gaps/prompt-gaps.http.controller';
import { PromptInsightsController } from './prompt-insights/prompt-insights.http.controller';
import { PromptTrendsController } from './prompt-trends/prompt-trends.http.controller';
import { Reads } from './read-model/reads';
import { TopCitationSourcesController } from './top-citation-sources/top-citation-sources.http.controller';
import { ChangeSummary } from './change-summary/change-summary.query';
import { CitationSourceAbsences } from './citation-source-absences/citation-source-absences.query';
import { CitationTrends } from './citation-trends/citation-trends.query';
import { GetCitationSource } from './get-citation-source/get-citation-source.query';
import { ListChanges } from './list-changes/list-changes.query';
import { ListCitationSources } from './list-citation-sources/list-citation-sources.query';
import { PromptDiscoveries } from './prompt-discoveries/prompt-discoveries.query';
import { PromptGaps } from './prompt-gaps/prompt-gaps.query';
import { PromptInsights } from './prompt-insights/prompt-insights.query';
import { PromptTrends } from './prompt-trends/prompt-trends.query';
import { TopCitationSources } from './top-citation-sources/top-citation-sources.query';

/** The read use cases, each one call from a controller, the MCP server or any app (exported). */
const READS = [ChangeSummary, CitationSourceAbsences, CitationTrends, GetCitationSource, ListChanges, ListCitationSources, PromptDiscoveries, PromptGaps, PromptInsights, PromptTrends, TopCitationSources];

/**
 * Citations, citation-source domains, prompts and changes (issue 16, DESIGN §14): what the answers
 * cite and whom it belongs to, which prompts the brand wins or loses, candidate prompts, and what
 * changed between answers. Reads the read models of projections/citations.
 */
@Module({
  imports: [TenancyModule, AnalysisModule],
  controllers: [
    TopCitationSourcesController,
    CitationSourceAbsencesController,
    ListCitationSourcesController,
    GetCitationSourceController,
    CitationTrendsController,
    PromptInsightsController,
    PromptGapsController,
    PromptDiscoveriesController,
    PromptTrendsController,
    ListChangesController,
    ChangeSummaryController,
  ],
  providers: [
    ...READS,
    Reads,
    AnswerDiscoveries,
    SearchConsoleDiscoveries,
    // Candidate prompts come from every source listed here: the answers, and the brand's Search Console queries (channels' read model).
    {
      provide: DISCOVERY_SOURCES,
      useFactory: (answers: AnswerDiscoveries, searchConsole: SearchConsoleDiscoveries) => [answers, searchConsole],
      inject: [AnswerDiscoveries, SearchConsoleDiscoveries],
    },
  ],
  exports: READS,
})
export class CitationsModule {}
