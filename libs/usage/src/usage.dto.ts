import { ApiProperty } from '@nestjs/swagger';

export class UsageTotals {
  @ApiProperty({ description: 'Authenticated requests (including those refused with 429)' }) requests!: number;
  @ApiProperty({ description: 'Requests answered with a 4xx or 5xx status' }) errors!: number;
}

export class DailyUsage {
  @ApiProperty({ format: 'date', example: '2026-01-31' }) date!: string;
  @ApiProperty() requests!: number;
  @ApiProperty() errors!: number;
}
