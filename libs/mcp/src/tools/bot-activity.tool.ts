import { Injectable } from '@nestjs/common';
import * as z from 'zod';
import { AgentBots, AgentPages } from '@libs/agent-analytics';
import { READ_ONLY, figure, id, untrusted, untrustedText, type McpTool, type ToolAnswer, type ToolContext } from '../mcp-tool';

const input = z.strictObject({
  brandId: id("Only visits to this brand's domains (list_brands); all the organisation's sites when omitted").optional(),
  days: z.number().int().min(1).max(400).optional().describe('The last N UTC days, today included (1-400, default 30)'),
  pages: z.number().int().min(1).max(50).optional().describe('Most-crawled pages to return (1-50, default 10)'),
});
const output = z.object({
  days: z.number().int(),
  bots: z.array(
    z.looseObject({
      botName: untrustedText('The name the agent calls itself', 100),
      operator: z.string(),
      category: z.string(),
      visits: z.number().int(),
      verifiedVisits: z.number().int().describe('Visits whose source the operator publishes (IP ranges, signatures)'),
      spoofedVisits: z.number().int().describe('Visits claiming to be this agent from elsewhere'),
      unverifiableVisits: z.number().int(),
      verifiedShare: figure,
      verification: z.string(),
      lastSeen: z.string(),
    }),
  ),
  topPages: z.array(
    z.looseObject({
      host: z.string(),
      path: untrustedText('The path crawled (as sent by the agent)'),
      visits: z.number().int(),
      bots: z.array(z.looseObject({ botName: untrustedText('Agent name', 100), visits: z.number().int() })),
    }),
  ),
});

/** GET /api/v1/agent-analytics/bots and /pages as one tool (AgentBots, AgentPages: the routes' reads). */
@Injectable()
export class BotActivityTool implements McpTool<typeof input, typeof output> {
  readonly name = 'bot_activity';
  readonly title = 'AI bot activity';
  readonly description = "AI agents crawling the brand's sites: per bot, visits verified against its operator's published sources vs spoofed, and the most-crawled pages with the bots on each.";
  readonly scope = 'read:agent-analytics' as const;
  readonly input = input;
  readonly output = output;
  readonly annotations = READ_ONLY;

  constructor(
    private readonly bots: AgentBots,
    private readonly pages: AgentPages,
  ) {}

  async run({ principal }: ToolContext, args: z.infer<typeof input>): Promise<ToolAnswer<z.infer<typeof output>>> {
    const days = args.days ?? 30;
    const [bots, pages] = await Promise.all([
      this.bots.read(principal, { brandId: args.brandId, days } as Parameters<AgentBots['read']>[1]),
      this.pages.read(principal, { brandId: args.brandId, days, limit: args.pages ?? 10 } as Parameters<AgentPages['read']>[1]),
    ]);
    const botList = bots.data.map((b) => ({ ...b, botName: untrusted(b.botName, 100) }));
    const topPages = pages.data.map((pg) => ({ ...pg, path: untrusted(pg.path), bots: pg.bots.slice(0, 20).map((b) => ({ ...b, botName: untrusted(b.botName, 100) })) }));
    const verified = botList.reduce((s, b) => s + b.verifiedVisits, 0);
    const spoofed = botList.reduce((s, b) => s + b.spoofedVisits, 0);
    return {
      data: { days, bots: botList, topPages },
      summary: `${botList.length} AI agent(s) over the last ${days} day(s): ${verified} verified and ${spoofed} spoofed visit(s); ${topPages.length} most-crawled page(s) listed.`,
    };
  }
}
