import { Injectable } from '@nestjs/common';
import { ResourceTemplate, type McpServer } from '@modelcontextprotocol/server';
import { hasScope, type Principal } from '@libs/auth';
import { ApiError } from '@libs/http';
import { BrandAccess, TenancyRepository } from '@libs/tenancy';
import { brandView } from '../tools/list-brands.tool';

export const BRAND_URI = 'brand://{brandId}';

/** The caller's brands as resources (`brand://<id>`, JSON), with the scope of GET /api/v1/brands. */
@Injectable()
export class BrandResources {
  constructor(
    private readonly tenancy: TenancyRepository,
    private readonly brands: BrandAccess,
  ) {}

  register(server: McpServer, principal: Principal): void {
    const allowed = hasScope(principal, 'read:brands');
    const template = new ResourceTemplate(BRAND_URI, {
      list: async () => ({
        resources: allowed
          ? (await this.tenancy.listBrands(principal)).map((b) => ({ uri: `brand://${b.id}`, name: `brand-${b.id}`, title: b.name, description: `Brand ${b.name} (${b.domain})`, mimeType: 'application/json' }))
          : [],
      }),
    });
    server.registerResource('brand', template, { title: 'Brand', description: 'A brand this credential may see: name, domains, aliases.', mimeType: 'application/json' }, async (uri, variables) => {
      if (!allowed) throw ApiError.insufficientScope('read:brands', principal.scopes);
      const brandId = Number(variables.brandId);
      if (!Number.isSafeInteger(brandId) || brandId < 1) throw ApiError.notFound(`Brand ${String(variables.brandId)}`);
      const brand = await this.brands.resolve(principal, brandId);
      return { contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(brandView(brand)) }] };
    });
  }
}
