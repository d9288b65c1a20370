import { ApiProperty } from '@nestjs/swagger';
import { BrandDto } from '../brand.dto';
import type { Brand } from '../tenancy.repository';

export class BrandListResponse {
  @ApiProperty({ type: [BrandDto] }) data!: Brand[];
}
