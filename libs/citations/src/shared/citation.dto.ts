import { ApiProperty } from '@nestjs/swagger';
import { PROVIDERS } from '@libs/http';
import { OWNERS } from '../domain';

export class EntityDto {
  @ApiProperty({ example: 'competitor-3', description: 'brand-<id> or competitor-<id>' }) id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ enum: ['brand', 'competitor'] }) kind!: 'brand' | 'competitor';
}

/** Who a cited domain or URL belongs to: the brand, a competitor (named), or another site. */
export class OwnerDto {
  @ApiProperty({ enum: OWNERS }) kind!: string;
  @ApiProperty({ type: EntityDto, nullable: true, description: 'The brand or the competitor; null for other sites' }) entity!: EntityDto | null;
}

export class ProviderCountDto {
  @ApiProperty({ enum: PROVIDERS }) provider!: string;
  @ApiProperty({ type: 'integer', minimum: 0 }) citations!: number;
}

export class PromptRefDto {
  @ApiProperty({ type: 'integer', nullable: true, description: 'The tracked prompt (null: asked by an audit request)' }) id!: number | null;
  @ApiProperty({ example: 'best crm for small business' }) query!: string;
}

/** A mean with its n (DESIGN §14): null when n = 0. */
export class MeanDto {
  @ApiProperty({ type: 'number', nullable: true }) value!: number | null;
  @ApiProperty({ type: 'integer', minimum: 0 }) n!: number;
}
