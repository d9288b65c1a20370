import { ApiProperty } from '@nestjs/swagger';
import { PageOf, PROVIDERS } from '@libs/http';
import { EntityDto, SovEntryDto } from '../read-model/figure.dto';

export class QuerySovDto {
  @ApiProperty({ enum: PROVIDERS }) provider!: string;
  @ApiProperty() query!: string;
  @ApiProperty({ type: EntityDto }) brand!: EntityDto;
  @ApiProperty({ type: 'integer', description: 'Answers of this provider to this query in the period' }) answers!: number;
  @ApiProperty({ type: [SovEntryDto], description: 'The brand and each competitor; shares add up to 1' }) entries!: SovEntryDto[];
}
export class SovPage extends PageOf(QuerySovDto) {}
