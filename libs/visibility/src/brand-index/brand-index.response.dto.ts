import { ApiProperty } from '@nestjs/swagger';
import { EntityDto } from '../read-model/figure.dto';

export class BrandIndexComponentDto {
  @ApiProperty({ enum: ['mentionRate', 'shareOfVoice', 'netSentiment', 'citationRate', 'visibilityShare'] }) name!: string;
  @ApiProperty({ type: 'number', nullable: true, minimum: 0, maximum: 100, description: 'The component on 0-100; null without data' }) value!: number | null;
  @ApiProperty({ description: 'Configured weight (percent)' }) weight!: number;
  @ApiProperty({ description: 'Weight it carried after components without data were left out (percent; they add to 100)' }) effectiveWeight!: number;
  @ApiProperty({ type: 'number', nullable: true, description: 'Points it added to the index' }) contribution!: number | null;
  @ApiProperty({ type: 'integer' }) n!: number;
}
export class BrandIndexDto {
  @ApiProperty({ type: EntityDto }) brand!: EntityDto;
  @ApiProperty({ type: String, format: 'date', nullable: true, description: 'The newest UTC day with answers (null: none yet)' }) date!: string | null;
  @ApiProperty({ type: 'string', format: 'date' }) startDate!: string;
  @ApiProperty({ type: 'string', format: 'date' }) endDate!: string;
  @ApiProperty({ type: 'number', nullable: true, minimum: 0, maximum: 100, description: 'null when no component has data' }) value!: number | null;
  @ApiProperty({ type: [BrandIndexComponentDto] }) components!: BrandIndexComponentDto[];
}
export class BrandIndexResponse {
  @ApiProperty({ type: BrandIndexDto }) data!: BrandIndexDto;
}
