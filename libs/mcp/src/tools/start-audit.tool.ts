import { Injectable } from '@nestjs/common';
import * as z from 'zod';
import { MAX_AUDIT_QUERIES, MAX_QUERY_LENGTH, PROVIDERS, RequestAudit, queryProblem } from '@libs/analysis';
import { id, marketFields, marketOf, type McpTool, type ToolAnswer, type ToolContext } from '../mcp-tool';

const input = z.strictObject({
  brandId: id('The brand (list_brands)'),
  queries: z
    .array(
      z
        .string()
        .max(MAX_QUERY_LENGTH + 100)
        .superRefine((q, ctx) => {
          const problem = queryProblem(q);
          if (problem) ctx.addIssue({ code: 'custom', message: problem });
        }),
    )
    .min(1).max(MAX_AUDIT_QUERIES).describe(`1 to ${MAX_AUDIT_QUERIES} questions to ask the engines`),
  providers: z
    .array(z.enum(PROVIDERS))
    .min(1)
    .max(PROVIDERS.length)
    .refine((p) => new Set(p).size === p.length, 'providers must list each provider at most once')
    .optional()
    .describe('The AI engines to ask (all when omitted)'),
  country: marketFields.country.describe('The market asked for: ISO 3166-1 alpha-2 country (the engines\' default when omitted)'),
  language: marketFields.language.describe('The market asked for: BCP 47 language (the engines\' default when omitted)'),
});
const output = z.object({
  auditRequestId: z.number().int(),
  analysisRunId: z.number().int().describe('The run it started (GET /api/v1/analysis-runs/{id})'),
  brandId: z.number().int(),
  queries: z.array(z.string()),
  providers: z.array(z.string()),
  status: z.literal('queued'),
  createdAt: z.string(),
});

/** POST /api/v1/audit-requests as a tool: the same use case, the same organisation quota. */
@Injectable()
export class StartAuditTool implements McpTool<typeof input, typeof output> {
  readonly name = 'start_audit';
  readonly title = 'Start an audit';
  readonly description =
    "Asks the AI engines a brand's questions now: starts an analysis run and returns its id. Counts against the organisation's audit-request quota (RATE_LIMITED beyond it).";
  readonly scope = 'write:audits' as const;
  readonly input = input;
  readonly output = output;
  readonly annotations = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true };

  constructor(private readonly audits: RequestAudit) {}

  async run({ principal }: ToolContext, args: z.infer<typeof input>): Promise<ToolAnswer<z.infer<typeof output>>> {
    const a = await this.audits.start(principal, { ...args, ...marketOf(args) });
    return {
      data: { auditRequestId: a.id, analysisRunId: a.analysisRunId, brandId: a.brandId, queries: a.queries, providers: a.providers, status: a.status, createdAt: a.createdAt },
      summary: `Analysis run ${a.analysisRunId} queued for brand #${a.brandId}: ${a.queries.length} question(s) to ${a.providers.length} engine(s).`,
    };
  }
}
