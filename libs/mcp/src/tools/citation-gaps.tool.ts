import { Injectable } from '@nestjs/common';
import * as z from 'zod';
import { CitationSourceAbsences } from '@libs/citations';
import { READ_ONLY, id, marketOf, untrusted, untrustedText, type McpTool, type ToolAnswer, type ToolContext } from '../mcp-tool';
import { rangeFields } from './top-citation-sources.tool';

const input = z.strictObject({
  brandId: id('The brand (list_brands)'),
  ...rangeFields,
  minScore: z.number().int().min(0).max(100).optional().describe('Drop domains scoring under this (0-100, default 50)'),
});
const output = z.object({
  startDate: z.string(),
  endDate: z.string(),
  minScore: z.number().int(),
  domains: z.array(
    z.looseObject({
      domain: z.string(),
      absenceScore: z.number(),
      consensusScore: z.number().nullable(),
      competitorDensity: z.number(),
      answersCiting: z.number().int(),
      competitorOnlyAnswers: z.number().int(),
      competitors: z.array(z.unknown()),
      prompts: z.array(z.object({ prompt: z.object({ id: z.number().int().nullable(), query: untrustedText('The question asked') }), answers: z.number().int() })),
    }),
  ),
});

/** GET /api/v1/citation-sources/absences as a tool (CitationSourceAbsences, the route's read). */
@Injectable()
export class CitationGapsTool implements McpTool<typeof input, typeof output> {
  readonly name = 'citation_gaps';
  readonly title = 'Citation gaps';
  readonly description =
    'Domains the AI engines cite in answers that mention a competitor and not the brand, ranked by consensus score x competitor density (0-100), with the competitors and the questions involved: where to earn a citation.';
  readonly scope = 'read:citation-sources' as const;
  readonly input = input;
  readonly output = output;
  readonly annotations = READ_ONLY;

  constructor(private readonly absences: CitationSourceAbsences) {}

  async run({ principal }: ToolContext, args: z.infer<typeof input>): Promise<ToolAnswer<z.infer<typeof output>>> {
    const r = (
      await this.absences.read(principal, { brandId: args.brandId, range: args.range ?? 30, limit: args.limit ?? 20, minScore: args.minScore ?? 50, ...marketOf(args) } as Parameters<CitationSourceAbsences['read']>[1])
    ).data;
    const domains = r.domains.map((d) => ({ ...d, prompts: d.prompts.slice(0, 10).map((x) => ({ prompt: { id: x.prompt.id, query: untrusted(x.prompt.query) }, answers: x.answers })) }));
    return {
      data: { ...r, domains },
      summary: `${domains.length} domain(s) cite competitors of brand #${args.brandId} and not the brand (score ≥ ${r.minScore}), ${r.startDate} to ${r.endDate}${domains.length ? `; first: ${domains.slice(0, 3).map((d) => `${d.domain} (${d.absenceScore})`).join(', ')}` : ''}.`,
    };
  }
}
