import { Module, type Type } from '@nestjs/common';
import { AgentAnalyticsModule } from '@libs/agent-analytics';
import { AnalysisModule } from '@libs/analysis';
import { CitationsModule } from '@libs/citations';
import { VisibilityModule } from '@libs/visibility';
import { OpportunitiesModule } from '@libs/opportunities';
import { TenancyModule } from '@libs/tenancy';
import { McpHttpController } from './http/mcp.http.controller';
import { ProtectedResourceController } from './http/protected-resource.http.controller';
import { MCP_TOOLS, McpServerFactory } from './mcp-server.factory';
import type { McpTool } from './mcp-tool';
import { BrandResources } from './resources/brand-resources';
import { ExplainOpportunityTool } from './tools/explain-opportunity.tool';
import { ListBrandsTool } from './tools/list-brands.tool';
import { ListOpportunitiesTool } from './tools/list-opportunities.tool';
import { SearchAnswersTool } from './tools/search-answers.tool';
import { BotActivityTool } from './tools/bot-activity.tool';
import { CitationGapsTool } from './tools/citation-gaps.tool';
import { ComparePeriodsTool } from './tools/compare-periods.tool';
import { TopCitationSourcesTool } from './tools/top-citation-sources.tool';
import { VisibilityFigures } from './tools/visibility-figures';
import { VisibilitySummaryTool } from './tools/visibility-summary.tool';
import { StartAuditTool } from './tools/start-audit.tool';
import { TransitionOpportunityTool } from './tools/transition-opportunity.tool';
import { WhatChangedTool } from './tools/what-changed.tool';

/** Every tool, in the order tools/list shows them. */
export const TOOLS: Type<McpTool>[] = [
  ListBrandsTool,
  VisibilitySummaryTool,
  ComparePeriodsTool,
  TopCitationSourcesTool,
  CitationGapsTool,
  BotActivityTool,
  SearchAnswersTool,
  ListOpportunitiesTool,
  ExplainOpportunityTool,
  TransitionOpportunityTool,
  StartAuditTool,
  WhatChangedTool,
];

/** The MCP server at /mcp (DESIGN §16): tools over the use cases of the other concerns, prompts, brands as resources. */
@Module({
  imports: [TenancyModule, OpportunitiesModule, AnalysisModule, VisibilityModule, CitationsModule, AgentAnalyticsModule],
  controllers: [McpHttpController, ProtectedResourceController],
  providers: [...TOOLS, VisibilityFigures, BrandResources, McpServerFactory, { provide: MCP_TOOLS, useFactory: (...tools: McpTool[]) => tools, inject: TOOLS }],
  exports: [McpServerFactory],
})
export class McpModule {}
