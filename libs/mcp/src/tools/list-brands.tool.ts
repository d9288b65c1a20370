import { Injectable } from '@nestjs/common';
import * as z from 'zod';
import { ApiError } from '@libs/http';
import { TenancyRepository, type Brand } from '@libs/tenancy';
import { READ_ONLY, id, type McpTool, type ToolAnswer, type ToolContext } from '../mcp-tool';

const input = z.strictObject({ clientId: id('Only the brands of this client').optional() });

export const brandSchema = z.object({
  id: z.number().int(),
  clientId: z.number().int().nullable(),
  name: z.string(),
  domain: z.string(),
  aliases: z.array(z.string()),
  extraDomains: z.array(z.string()),
  createdAt: z.string(),
});
const output = z.object({ brands: z.array(brandSchema) });

/** The brand as the tools show it (the organisation is the caller's own, so not repeated). */
export const brandView = (b: Brand): z.infer<typeof brandSchema> => ({ id: b.id, clientId: b.clientId, name: b.name, domain: b.domain, aliases: b.aliases, extraDomains: b.extraDomains, createdAt: b.createdAt });

/** GET /api/v1/brands as a tool. */
@Injectable()
export class ListBrandsTool implements McpTool<typeof input, typeof output> {
  readonly name = 'list_brands';
  readonly title = 'List brands';
  readonly description = 'The brands this credential may see (id, name, domains); every other tool takes a brand id from here.';
  readonly scope = 'read:brands' as const;
  readonly input = input;
  readonly output = output;
  readonly annotations = READ_ONLY;

  constructor(private readonly tenancy: TenancyRepository) {}

  async run({ principal }: ToolContext, args: z.infer<typeof input>): Promise<ToolAnswer<z.infer<typeof output>>> {
    if (args.clientId !== undefined && !(await this.tenancy.canSeeClient(principal, args.clientId))) throw ApiError.notFound(`Client ${args.clientId}`);
    const brands = (await this.tenancy.listBrands(principal, args.clientId)).map(brandView);
    return { data: { brands }, summary: `${brands.length} brand(s): ${brands.map((b) => `#${b.id}`).join(', ') || 'none'}.` };
  }
}
