import { ApiProperty } from '@nestjs/swagger';
import type { Brand } from './tenancy.repository';

/** A brand as every brand endpoint returns it. */
export class BrandDto {
  @ApiProperty() id!: number;
  @ApiProperty() organizationId!: number;
  @ApiProperty({ type: Number, nullable: true }) clientId!: number | null;
  @ApiProperty() name!: string;
  @ApiProperty({ example: 'acme.com' }) domain!: string;
  @ApiProperty({ type: [String] }) aliases!: string[];
  @ApiProperty({ type: [String], description: 'Other domains the brand owns; answers citing them count as citing the brand' }) extraDomains!: string[];
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
}

export class BrandResponse {
  @ApiProperty({ type: BrandDto }) data!: Brand;
}
