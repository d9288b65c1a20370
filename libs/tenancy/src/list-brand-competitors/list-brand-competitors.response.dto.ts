import { ApiProperty } from '@nestjs/swagger';
import type { Competitor } from '../tenancy.repository';

class CompetitorDto {
  @ApiProperty() id!: number;
  @ApiProperty() brandId!: number;
  @ApiProperty() name!: string;
  @ApiProperty() domain!: string;
  @ApiProperty({ type: [String] }) aliases!: string[];
}

export class CompetitorListResponse {
  @ApiProperty({ type: [CompetitorDto] }) data!: Competitor[];
}
