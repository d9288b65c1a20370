import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { InjectConfig } from '@libs/config';
import type { TenantScope } from '@libs/tenancy';
import { addGroup, emptyCost, roundUsd, type CostFigure, type Provider, type UsageGroup } from '../domain';
import { ANALYSIS_CONFIG, type AnalysisConfig } from '../analysis.config';
import { TENANT } from './analysis-records';

/** A cost figure per provider, in a given provider order. */
export interface ProviderCost extends CostFigure {
  provider: Provider;
}

/** A day's cost (UTC). */
export interface DailyCost extends CostFigure {
  date: string;
}

const rounded = <T extends CostFigure>(figure: T): T => ({ ...figure, usd: roundUsd(figure.usd) });

/**
 * What answers cost, computed when read (DESIGN §17): the tokens of `answer_usage` summed per
 * provider, model and UTC day, each group priced at the table's line in force on its day.
 */
@Injectable()
export class CostReads {
  constructor(
    private readonly dataSource: DataSource,
    @InjectConfig(ANALYSIS_CONFIG) private readonly config: AnalysisConfig,
  ) {}

  private async groups(where: string, params: unknown[]): Promise<UsageGroup[]> {
    const rows: Record<string, string | number>[] = await this.dataSource.query(
      `SELECT provider, model, to_char(asked_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, count(*)::int AS requests,
              sum(input_tokens)::float8 AS input, sum(cached_input_tokens)::float8 AS cached, sum(output_tokens)::float8 AS output
         FROM answer_usage WHERE ${where} GROUP BY 1, 2, 3`,
      params,
    );
    return rows.map((r) => ({
      provider: String(r.provider),
      model: String(r.model),
      day: String(r.day),
      requests: Number(r.requests),
      inputTokens: Number(r.input),
      cachedInputTokens: Number(r.cached),
      outputTokens: Number(r.output),
    }));
  }

  /** A run's cost, overall and per provider (every provider of the run listed, in its order). */
  async run(scope: TenantScope, runId: number, providers: readonly Provider[]): Promise<CostFigure & { byProvider: ProviderCost[] }> {
    const groups = await this.groups(`${TENANT} AND run_id = $3`, [scope.organizationId, scope.clientId, runId]);
    const total = emptyCost();
    const byProvider = new Map<string, CostFigure>(providers.map((p) => [p, emptyCost()]));
    for (const g of groups) {
      addGroup(total, g, this.config.prices);
      if (!byProvider.has(g.provider)) byProvider.set(g.provider, emptyCost());
      addGroup(byProvider.get(g.provider)!, g, this.config.prices);
    }
    return { ...rounded(total), byProvider: [...byProvider].map(([provider, figure]) => rounded({ provider: provider as Provider, ...figure })) };
  }

  /** Cost per UTC day from `from` to `to` (inclusive, YYYY-MM-DD), every day present (0 when nothing was asked), and the total. */
  async daily(scope: TenantScope, from: string, to: string): Promise<CostFigure & { daily: DailyCost[] }> {
    const groups = await this.groups(`${TENANT} AND asked_at >= $3::date AND asked_at < $4::date + 1`, [scope.organizationId, scope.clientId, from, to]);
    const total = emptyCost();
    const days = new Map<string, CostFigure>();
    for (let d = new Date(`${from}T00:00:00Z`); d.toISOString().slice(0, 10) <= to; d = new Date(d.getTime() + 86_400_000)) days.set(d.toISOString().slice(0, 10), emptyCost());
    for (const g of groups) {
      addGroup(total, g, this.config.prices);
      const day = days.get(g.day);
      if (day) addGroup(day, g, this.config.prices);
    }
    return { ...rounded(total), daily: [...days].map(([date, figure]) => rounded({ date, ...figure })) };
  }
}
