import { type Type } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';

/** The figures envelope of an analytics read: `{brand, startDate, endDate, overall, providers}`. */
export interface Figures<Entity, Overall, Provider> {
  brand: Entity;
  startDate: string;
  endDate: string;
  overall: Overall;
  providers: Provider[];
}

/**
 * The figures envelope for OpenAPI: `export class AeoMetricsDto extends FiguresOf(EntityDto, AeoFiguresDto, ProviderAeoDto) {}`
 * (the subclass names the schema; the entity class is the caller's, so each library keeps its own example).
 */
export function FiguresOf<Entity, Overall, Provider>(entity: Type<Entity>, overall: Type<Overall>, provider: Type<Provider>): Type<Figures<Entity, Overall, Provider>> {
  class FiguresOfBrand {
    @ApiProperty({ type: entity }) brand!: Entity;
    @ApiProperty({ type: 'string', format: 'date' }) startDate!: string;
    @ApiProperty({ type: 'string', format: 'date' }) endDate!: string;
    @ApiProperty({ type: overall }) overall!: Overall;
    @ApiProperty({ type: [provider] }) providers!: Provider[];
  }
  return FiguresOfBrand;
}
