import { Injectable } from '@nestjs/common';
import * as z from 'zod';
import { ListOpportunities, OPPORTUNITY_SORTS, READ_MODEL_PROJECTIONS, ReadYourWrites, SEVERITIES, STATUSES, TYPES, type ListOpportunitiesQuery } from '@libs/opportunities';
import { BrandAccess } from '@libs/tenancy';
import { READ_ONLY, id, type McpTool, type ToolAnswer, type ToolContext } from '../mcp-tool';
import { opportunitySchema, opportunityView } from './opportunity-view';

const SORTS = [...OPPORTUNITY_SORTS.keys()] as [string, ...string[]];

const input = z.strictObject({
  brandId: id('Only this brand (list_brands)').optional(),
  type: z.array(z.enum(TYPES)).min(1).max(TYPES.length).optional().describe('Only these types'),
  status: z.array(z.enum(STATUSES)).min(1).max(STATUSES.length).optional().describe('Only these states (default: every non-terminal state)'),
  severity: z.array(z.enum(SEVERITIES)).min(1).max(SEVERITIES.length).optional().describe('Only these severities'),
  includeTerminal: z.boolean().optional().describe('Also resolved and dismissed ones'),
  sort: z.enum(SORTS).optional().describe('Field to sort by (default detectedAt)'),
  order: z.enum(['asc', 'desc']).optional().describe('Default desc'),
  limit: z.number().int().min(1).max(200).optional().describe('1-200, default 20'),
  offset: z.number().int().min(0).max(1_000_000).optional().describe('Default 0'),
});
const output = z.object({
  opportunities: z.array(opportunitySchema),
  total: z.number().int().describe('Opportunities matching the filters'),
  limit: z.number().int(),
  offset: z.number().int(),
  hasMore: z.boolean(),
});

/** GET /api/v1/opportunities as a tool (the same list query, the same read-your-writes wait). */
@Injectable()
export class ListOpportunitiesTool implements McpTool<typeof input, typeof output> {
  readonly name = 'list_opportunities';
  readonly title = 'List opportunities';
  readonly description = 'The opportunity queue: open opportunities unless includeTerminal or a status list says otherwise, filtered by brand, type, status, severity; each with its version and the moves allowed next.';
  readonly scope = 'read:opportunities' as const;
  readonly input = input;
  readonly output = output;
  readonly annotations = READ_ONLY;

  constructor(
    private readonly listing: ListOpportunities,
    private readonly ryw: ReadYourWrites,
    private readonly brands: BrandAccess,
  ) {}

  async run({ principal }: ToolContext, args: z.infer<typeof input>): Promise<ToolAnswer<z.infer<typeof output>>> {
    if (args.brandId !== undefined) await this.brands.assertVisible(principal, args.brandId);
    await this.ryw.waitFor(principal.subject, READ_MODEL_PROJECTIONS);
    const query = { ...args, limit: args.limit ?? 20, offset: args.offset ?? 0, order: args.order ?? 'desc' } as ListOpportunitiesQuery;
    const page = JSON.parse(await this.listing.json(principal, query)) as { data: Record<string, unknown>[]; meta: { total: number; limit: number; offset: number; hasMore: boolean } };
    const opportunities = page.data.map(opportunityView);
    const { total, hasMore } = page.meta;
    return {
      data: { opportunities, total, limit: query.limit, offset: query.offset, hasMore },
      summary: `${opportunities.length} of ${total} opportunit${total === 1 ? 'y' : 'ies'}${opportunities.length ? `: ${opportunities.slice(0, 10).map((o) => `#${o.id} ${o.severity} ${o.status}`).join(', ')}${opportunities.length > 10 ? ', …' : ''}` : ''}.`,
    };
  }
}
