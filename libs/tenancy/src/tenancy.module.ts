import { Module } from '@nestjs/common';
import { BrandAccess } from './brand-access';
import { GetBrandController } from './get-brand/get-brand.http.controller';
import { ListBrandCompetitorsController } from './list-brand-competitors/list-brand-competitors.http.controller';
import { ListBrandsController } from './list-brands/list-brands.http.controller';
import { TenancyRepository } from './tenancy.repository';

/** Organisations, clients, brands and competitors; BrandAccess is every concern's door to brands. */
@Module({
  controllers: [ListBrandsController, GetBrandController, ListBrandCompetitorsController],
  providers: [TenancyRepository, BrandAccess],
  exports: [TenancyRepository, BrandAccess],
})
export class TenancyModule {}
