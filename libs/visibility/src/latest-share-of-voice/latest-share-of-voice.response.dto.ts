import { ApiProperty } from '@nestjs/swagger';
import { PROVIDERS } from '@libs/http';
import { SovEntryDto } from '../read-model/figure.dto';

export class ProviderSovDto {
  @ApiProperty({ enum: PROVIDERS }) provider!: string;
  @ApiProperty({ type: 'integer' }) answers!: number;
  @ApiProperty({ type: [SovEntryDto] }) entries!: SovEntryDto[];
}
export class LatestSovDto {
  @ApiProperty({ type: String, format: 'date', nullable: true, description: "The UTC day the brand's most recent complete run (completed, or partial with answers) started; null when none has ended yet" }) date!: string | null;
  @ApiProperty({ type: [ProviderSovDto] }) providers!: ProviderSovDto[];
}
export class LatestSovResponse {
  @ApiProperty({ type: LatestSovDto }) data!: LatestSovDto;
}
