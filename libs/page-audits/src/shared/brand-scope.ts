import { Injectable } from '@nestjs/common';
import type { Principal } from '@libs/auth';
import { ApiError, type BrandQuery } from '@libs/http';
import { BrandAccess, TenancyRepository, type Brand } from '@libs/tenancy';

/** The brand of a `brandId` (+ optional `clientId`) query: 404 unless the caller may see it (and it is that client's). */
@Injectable()
export class BrandScope {
  constructor(
    private readonly brands: BrandAccess,
    private readonly tenancy: TenancyRepository,
  ) {}

  async resolve(p: Principal, q: BrandQuery): Promise<Brand> {
    if (q.clientId !== undefined && !(await this.tenancy.canSeeClient(p, q.clientId))) throw ApiError.notFound(`Client ${q.clientId}`);
    const brand = await this.brands.resolve(p, q.brandId);
    if (q.clientId !== undefined && brand.clientId !== q.clientId) throw ApiError.notFound(`Brand ${q.brandId}`);
    return brand;
  }
}
