import { ApiProperty } from '@nestjs/swagger';
import { DailyUsage, UsageTotals } from '../usage.dto';

class KeyUsage {
  @ApiProperty() keyId!: number;
  @ApiProperty({ format: 'date' }) from!: string;
  @ApiProperty({ format: 'date' }) to!: string;
  @ApiProperty() days!: number;
  @ApiProperty({ type: UsageTotals }) totals!: UsageTotals;
  @ApiProperty({ type: [DailyUsage] }) daily!: DailyUsage[];
}

export class KeyUsageResponse {
  @ApiProperty({ type: KeyUsage }) data!: KeyUsage;
}
