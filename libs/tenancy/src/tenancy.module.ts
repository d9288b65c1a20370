import { Module } from '@nestjs/common';
import { BrandsController } from './brands.controller';
import { TenancyRepository } from './tenancy.repository';

@Module({ controllers: [BrandsController], providers: [TenancyRepository], exports: [TenancyRepository] })
export class TenancyModule {}
