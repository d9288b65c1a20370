import { type Type } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';

/** The `meta` of every paginated list. */
export class PageMetaDto {
  @ApiProperty() total!: number;
  @ApiProperty() limit!: number;
  @ApiProperty() offset!: number;
  @ApiProperty() hasMore!: boolean;
}

/**
 * The response of a paginated list of `Item`, `{data: Item[], meta}`, for OpenAPI:
 * `export class OpportunityPage extends PageOf(OpportunityDto) {}` (the subclass names the schema).
 */
export function PageOf<Item>(item: Type<Item>): Type<{ data: Item[]; meta: PageMetaDto }> {
  class PageOfItems {
    @ApiProperty({ type: [item] }) data!: Item[];
    @ApiProperty({ type: PageMetaDto }) meta!: PageMetaDto;
  }
  return PageOfItems;
}
