import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { InjectConfig } from '@libs/config';
import type { TenantScope } from '@libs/tenancy';
import { addGroup, emptyCost, roundUsd, type CostFigure, type Provider, type UsageGroup } from '../domain';
import { ANALYSIS_CONFIG, type AnalysisConfig } from '../analysis.config';
import { TENANT } from './analysis-records';

/** A cost figure that includes judge calls, and says which part of it they are (`judge`). */
export interface CostWithJudge extends CostFigure {
  judge: CostFigure;
}

/** A cost figure per provider, in a given provider order: its answers and the judge calls billed to it. */
export interface ProviderCost extends CostWithJudge {
  provider: Provider;
}

/** A day's cost (UTC), judge calls included. */
export interface DailyCost extends CostWithJudge {
  date: string;
}

interface CallGroup extends UsageGroup {
  readonly judge: boolean;
}

const emptyWithJudge = (): CostWithJudge => ({ ...emptyCost(), judge: emptyCost() });
const rounded = <T extends CostWithJudge>(figure: T): T => ({ ...figure, usd: roundUsd(figure.usd), judge: { ...figure.judge, usd: roundUsd(figure.judge.usd) } });

/**
 * What answers cost, computed when read (DESIGN §17): the tokens of `answer_usage` summed per
 * provider, model, UTC day and kind of call, each group priced at the table's line in force on
 * its day. Judge calls count in every figure, under the provider they are billed to, priced on
 * tokens only (no search, so no request fee), and each figure says their part in `judge`.
 */
@Injectable()
export class CostReads {
  constructor(
    private readonly dataSource: DataSource,
    @InjectConfig(ANALYSIS_CONFIG) private readonly config: AnalysisConfig,
  ) {}

  private async groups(where: string, params: unknown[]): Promise<CallGroup[]> {
    const rows: Record<string, string | number | boolean>[] = await this.dataSource.query(
      `SELECT provider, model, to_char(asked_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, call <> 'answer' AS judge, count(*)::int AS requests,
              sum(input_tokens)::float8 AS input, sum(cached_input_tokens)::float8 AS cached, sum(output_tokens)::float8 AS output
         FROM answer_usage WHERE ${where} GROUP BY 1, 2, 3, 4`,
      params,
    );
    return rows.map((r) => ({
      judge: r.judge === true,
      feeRequests: r.judge === true ? 0 : Number(r.requests),
      provider: String(r.provider),
      model: String(r.model),
      day: String(r.day),
      requests: Number(r.requests),
      inputTokens: Number(r.input),
      cachedInputTokens: Number(r.cached),
      outputTokens: Number(r.output),
    }));
  }

  private add(figure: CostWithJudge, g: CallGroup): void {
    addGroup(figure, g, this.config.prices);
    if (g.judge) addGroup(figure.judge, g, this.config.prices);
  }

  /** A run's cost, overall and per provider (every provider of the run listed, in its order; then any provider only its judge calls were billed to). */
  async run(scope: TenantScope, runId: number, providers: readonly Provider[]): Promise<CostWithJudge & { byProvider: ProviderCost[] }> {
    const groups = await this.groups(`${TENANT} AND run_id = $3`, [scope.organizationId, scope.clientId, runId]);
    const total = emptyWithJudge();
    const byProvider = new Map<string, CostWithJudge>(providers.map((p) => [p, emptyWithJudge()]));
    for (const g of groups) {
      this.add(total, g);
      if (!byProvider.has(g.provider)) byProvider.set(g.provider, emptyWithJudge());
      this.add(byProvider.get(g.provider)!, g);
    }
    return { ...rounded(total), byProvider: [...byProvider].map(([provider, figure]) => rounded({ provider: provider as Provider, ...figure })) };
  }

  /** Cost per UTC day from `from` to `to` (inclusive, YYYY-MM-DD), every day present (0 when nothing was asked), and the total. */
  async daily(scope: TenantScope, from: string, to: string): Promise<CostWithJudge & { daily: DailyCost[] }> {
    const groups = await this.groups(`${TENANT} AND asked_at >= $3::date AND asked_at < $4::date + 1`, [scope.organizationId, scope.clientId, from, to]);
    const total = emptyWithJudge();
    const days = new Map<string, CostWithJudge>();
    for (let d = new Date(`${from}T00:00:00Z`); d.toISOString().slice(0, 10) <= to; d = new Date(d.getTime() + 86_400_000)) days.set(d.toISOString().slice(0, 10), emptyWithJudge());
    for (const g of groups) {
      this.add(total, g);
      const day = days.get(g.day);
      if (day) this.add(day, g);
    }
    return { ...rounded(total), daily: [...days].map(([date, figure]) => rounded({ date, ...figure })) };
  }
}
