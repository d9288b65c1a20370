import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

/** An organisation's budgets in USD (null: none), and when they were last set. */
export interface Budgets {
  organizationId: number;
  monthlyUsd: number | null;
  perRunUsd: number | null;
  updatedAt: string | null;
}

/** What a budget change says: a field left out keeps its value, null removes the budget. */
export interface BudgetChange {
  monthlyUsd?: number | null;
  perRunUsd?: number | null;
}

const num = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

/** The organisation's budgets (issue 32 part 2): per UTC month and per run, in USD. */
@Injectable()
export class BudgetsRepository {
  constructor(private readonly dataSource: DataSource) {}

  async of(organizationId: number): Promise<Budgets> {
    const rows: { monthly_usd: string | null; per_run_usd: string | null; updated_at: Date }[] = await this.dataSource.query(
      `SELECT monthly_usd, per_run_usd, updated_at FROM organization_budgets WHERE organization_id = $1`,
      [organizationId],
    );
    const row = rows[0];
    return { organizationId, monthlyUsd: num(row?.monthly_usd), perRunUsd: num(row?.per_run_usd), updatedAt: row ? row.updated_at.toISOString() : null };
  }

  /** Sets the budgets given (the others keep their value) and returns them all. */
  async set(organizationId: number, change: BudgetChange): Promise<Budgets> {
    await this.dataSource.query(
      `INSERT INTO organization_budgets (organization_id, monthly_usd, per_run_usd, updated_at) VALUES ($1, $2, $3, now())
       ON CONFLICT (organization_id) DO UPDATE SET
         monthly_usd = CASE WHEN $4 THEN EXCLUDED.monthly_usd ELSE organization_budgets.monthly_usd END,
         per_run_usd = CASE WHEN $5 THEN EXCLUDED.per_run_usd ELSE organization_budgets.per_run_usd END,
         updated_at = now()`,
      [organizationId, change.monthlyUsd ?? null, change.perRunUsd ?? null, change.monthlyUsd !== undefined, change.perRunUsd !== undefined],
    );
    return this.of(organizationId);
  }

  /** USD spent (settled answers) and reserved (questions being asked, at their estimate) this UTC month. */
  async monthSpend(organizationId: number, now: Date = new Date()): Promise<{ month: string; spentUsd: number; reservedUsd: number }> {
    const month = `${now.toISOString().slice(0, 7)}-01`;
    const [row]: { spent: string; reserved: string }[] = await this.dataSource.query(
      `SELECT coalesce(sum(usd) FILTER (WHERE state = 'settled'), 0) AS spent, coalesce(sum(estimate_usd) FILTER (WHERE state = 'reserved'), 0) AS reserved
         FROM answer_spend WHERE organization_id = $1 AND month = $2::date`,
      [organizationId, month],
    );
    return { month: month.slice(0, 7), spentUsd: Number(row.spent), reservedUsd: Number(row.reserved) };
  }
}
