import { Injectable } from '@nestjs/common';
import * as z from 'zod';
import { TopCitationSources } from '@libs/citations';
import { READ_ONLY, id, marketFields, marketOf, untrusted, untrustedText, type McpTool, type ToolAnswer, type ToolContext } from '../mcp-tool';

export const rangeFields = {
  range: z.number().int().min(1).max(365).optional().describe('The last N days up to today (UTC), 1-365, default 30'),
  limit: z.number().int().min(1).max(200).optional().describe('Domains to list, 1-200, default 20'),
  ...marketFields,
};

const input = z.strictObject({ brandId: id('The brand (list_brands)'), ...rangeFields });
const output = z.object({
  startDate: z.string(),
  endDate: z.string(),
  providersAsked: z.number().int(),
  totalDomains: z.number().int(),
  domains: z.array(
    z.looseObject({
      domain: z.string(),
      consensusScore: z.number().nullable().describe('0-100: citations x provider coverage x recency, the top domain 100'),
      citations: z.number().int(),
      providerCoverage: z.number(),
      providers: z.array(z.unknown()),
      owner: z.unknown(),
      exampleUrls: z.array(untrustedText('A cited URL')),
    }),
  ),
});

/** GET /api/v1/citation-sources/top as a tool (TopCitationSources, the route's read). */
@Injectable()
export class TopCitationSourcesTool implements McpTool<typeof input, typeof output> {
  readonly name = 'top_citation_sources';
  readonly title = 'Top citation sources';
  readonly description = 'The domains the AI engines cite in answers about a brand, ranked by consensus score (citation count x provider coverage x recency), with their owner (the brand, a competitor, or neither).';
  readonly scope = 'read:citation-sources' as const;
  readonly input = input;
  readonly output = output;
  readonly annotations = READ_ONLY;

  constructor(private readonly top: TopCitationSources) {}

  async run({ principal }: ToolContext, args: z.infer<typeof input>): Promise<ToolAnswer<z.infer<typeof output>>> {
    const r = (await this.top.read(principal, { brandId: args.brandId, range: args.range ?? 30, limit: args.limit ?? 20, ...marketOf(args) } as Parameters<TopCitationSources['read']>[1])).data;
    const domains = r.domains.map((d) => ({ ...d, exampleUrls: d.exampleUrls.slice(0, 5).map((u) => untrusted(u)) }));
    return {
      data: { ...r, domains },
      summary: `${domains.length} of ${r.totalDomains} cited domain(s) for brand #${args.brandId}, ${r.startDate} to ${r.endDate}${domains.length ? `; top: ${domains.slice(0, 3).map((d) => `${d.domain} (${d.consensusScore})`).join(', ')}` : ''}.`,
    };
  }
}
