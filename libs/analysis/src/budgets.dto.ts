import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsNumber, Max, Min, ValidateBy, ValidateIf } from 'class-validator';

/** The most a budget may be (USD): the ledger's numeric(14, 6) holds up to 1e8. */
export const MAX_BUDGET_USD = 10_000_000;

/** A budget field: a number of USD from 0 to MAX_BUDGET_USD, or null (removes the budget); left out, it keeps its value. */
const usd = (name: string) =>
  applyDecorators(
    ValidateIf((_o: object, v: unknown) => v !== undefined && v !== null),
    Max(MAX_BUDGET_USD, { message: `${name} must be at most ${MAX_BUDGET_USD}` }),
    Min(0, { message: `${name} must be 0 or more` }),
    // class-validator's maxDecimalPlaces throws on exponent notation (1e-7): whole millionths are checked here.
    ValidateBy({ name: 'usdMicros', validator: { validate: (v: unknown) => typeof v !== 'number' || wholeMicros(v), defaultMessage: () => `${name} must have at most 6 decimals` } }),
    IsNumber({ allowNaN: false, allowInfinity: false }, { message: `${name} must be a number of USD or null` }),
  );

/** Whether a number of USD is a whole number of millionths (the ledger's precision). */
function wholeMicros(v: number): boolean {
  const micros = v * 1e6;
  return Math.abs(micros - Math.round(micros)) < 1e-6 * Math.max(1, Math.abs(micros)) * 1e-3;
}

/** PUT /api/v1/budgets: each budget in USD, null to remove it, left out to keep it. */
export class SetBudgetsRequest {
  @ApiPropertyOptional({ type: Number, nullable: true, minimum: 0, maximum: MAX_BUDGET_USD, example: 200, description: 'USD the organisation’s runs may spend per UTC month (null: no monthly budget)' })
  @usd('monthlyUsd')
  monthlyUsd?: number | null;

  @ApiPropertyOptional({ type: Number, nullable: true, minimum: 0, maximum: MAX_BUDGET_USD, example: 5, description: 'USD one run may spend (null: no per-run budget)' })
  @usd('perRunUsd')
  perRunUsd?: number | null;
}

class MonthSpendDto {
  @ApiProperty({ example: '2026-11', description: 'The UTC month' }) month!: string;
  @ApiProperty({ description: 'USD of the month’s answers, at the prices of their days' }) spentUsd!: number;
  @ApiProperty({ description: 'USD reserved for questions being asked now, at their estimate' }) reservedUsd!: number;
}

export class BudgetsDto {
  @ApiProperty({ type: 'integer' }) organizationId!: number;
  @ApiProperty({ type: Number, nullable: true }) monthlyUsd!: number | null;
  @ApiProperty({ type: Number, nullable: true }) perRunUsd!: number | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'When they were last set (null: never)' }) updatedAt!: string | null;
  @ApiProperty({ type: MonthSpendDto }) currentMonth!: MonthSpendDto;
}

export class BudgetsResponse {
  @ApiProperty({ type: BudgetsDto }) data!: BudgetsDto;
}
