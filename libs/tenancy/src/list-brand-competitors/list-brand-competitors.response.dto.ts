import { ApiProperty } from '@nestjs/swagger';
import type { Competitor } from '../tenancy.repository';

class CompetitorDto {
  @ApiProperty() id!: number;
  @ApiProperty() brandId!: number;
  @ApiProperty() name!: string;
  @ApiProperty() domain!: string;
  @ApiProperty({ type: [String] }) aliases!: string[];
  @ApiProperty({ type: [String], description: 'Other domains the competitor owns' }) extraDomains!: string[];
}

export class CompetitorListResponse {
  @ApiProperty({ type: [CompetitorDto] }) data!: Competitor[];
}
