import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { InjectConfig } from '@libs/config';
import { costUsd, priceOn, TYPICAL_JUDGE_USAGE, TYPICAL_USAGE, type AnswerFailed, type AnswerRecorded, type Provider, type TokenUsage } from '../domain';
import { ANALYSIS_CONFIG, type AnalysisConfig } from '../analysis.config';

/** What one question is expected to cost. */
export interface QuestionEstimate extends TokenUsage {
  usd: number;
}

/** Whether a question may be asked, and when not, which budget it would exceed. */
export type SpendDecision =
  | { readonly ask: true }
  | { readonly ask: false; readonly budget: 'run' | 'month'; readonly limitUsd: number; readonly committedUsd: number; readonly estimateUsd: number };

/** Answers averaged for an organisation's estimate per provider (its latest settled ones). */
const ESTIMATE_SAMPLE = 50;

/** The estimate's sample ($1 organisation, $2 provider, $3 judge calls rather than questions): its size and average tokens. */
const ESTIMATE_SQL = `SELECT count(*)::int AS n, avg(input_tokens)::float8 AS input, avg(cached_input_tokens)::float8 AS cached, avg(output_tokens)::float8 AS output
  FROM (SELECT input_tokens, cached_input_tokens, output_tokens FROM answer_spend
         WHERE organization_id = $1 AND provider = $2 AND state = 'settled' AND input_tokens IS NOT NULL AND (call = 'answer') <> $3
         ORDER BY settled_at DESC LIMIT ${ESTIMATE_SAMPLE}) s`;

interface EstimateRow {
  n: number;
  input: number | null;
  cached: number | null;
  output: number | null;
}

interface Budgets {
  monthly_usd: string | null;
  per_run_usd: string | null;
}

const monthOf = (at: Date) => `${at.toISOString().slice(0, 7)}-01`;

/** Whether a budget is set (null or absent: no limit). */
const limited = (limit: string | null | undefined): limit is string => limit !== null && limit !== undefined;

/**
 * The spend ledger the budgets are checked against (issue 32 part 2), one row per question of a
 * run (`answer_spend`, keyed by run and place):
 * - `reserve` before a live question is asked, under a per-organisation transaction lock: when
 *   the run's or the month's committed spend (settled answers at their cost, questions in flight
 *   at their estimate) plus this question's estimate would exceed a budget, the row says
 *   `not_asked` and the question is not asked; else it says `reserved` at the estimate.
 * - `settle` once the question has ended: the reply's cost from its reported tokens (0 for a failure).
 * A retried job finds its question's row and keeps its decision: it is neither checked nor
 * counted again, so a crash between reserving, asking, recording and settling double-counts nothing.
 * Judge calls are rows of the same ledger (`call` `judge:<cache key>` beside the question's
 * `answer`), reserved and settled the same way at the judge's provider and model, so they count
 * in the run's and the month's committed spend and are checked against both budgets.
 */
@Injectable()
export class SpendLedger {
  constructor(
    private readonly dataSource: DataSource,
    @InjectConfig(ANALYSIS_CONFIG) private readonly config: AnalysisConfig,
  ) {}

  /**
   * The expected tokens and cost of one question to `provider` for the organisation (or, `judge`,
   * of one judge call billed to it: tokens only, no request fee): the average of its latest such
   * calls, else the typical usage.
   */
  async estimate(organizationId: number, provider: Provider, model: string, at: Date = new Date(), judge = false): Promise<QuestionEstimate> {
    const [row]: EstimateRow[] = await this.dataSource.query(ESTIMATE_SQL, [organizationId, provider, judge]);
    return this.estimateOf(row, provider, model, at, judge);
  }

  /** The estimate from its sample's averages (none: the typical usage), at the price of `model` on `at`. */
  private estimateOf(row: EstimateRow, provider: Provider, model: string, at: Date, judge: boolean): QuestionEstimate {
    const typical = judge ? TYPICAL_JUDGE_USAGE : TYPICAL_USAGE[provider];
    const usage: TokenUsage = row.n > 0 ? { inputTokens: Math.round(row.input ?? 0), cachedInputTokens: Math.round(row.cached ?? 0), outputTokens: Math.round(row.output ?? 0) } : typical;
    const price = priceOn(this.config.prices, provider, model, at.toISOString().slice(0, 10));
    return { ...usage, usd: price ? costUsd(usage, judge ? 0 : 1, price) : 0 };
  }

  /**
   * Decides whether question n of the run may be asked (see the class), or with `call`
   * (`judge:<cache key>`) a judge call on its answer; the same answer on every call for the same question or judge call.
   *
   * The organisation's ledger lock is taken in two modes: a check against a budget holds it
   * exclusively (its sums, then its row), while a reservation of an organisation without budgets,
   * which checks nothing, holds it shared: such reservations (every question of a run, 100 in
   * flight) do not wait for each other, and a check waits until those in hand are committed, so its
   * sums count them, as when every reservation took the lock in turn.
   */
  async reserve(q: { organizationId: number; runId: number; n: number; provider: Provider; model: string; call?: string }, now: Date = new Date()): Promise<SpendDecision> {
    const call = q.call ?? 'answer';
    const judge = call !== 'answer';
    // The estimate's sample and the organisation's budgets in one read. The budgets are read before
    // the lock is taken, as good as under it: setting a budget never takes the lock.
    const [row]: (EstimateRow & Budgets)[] = await this.dataSource.query(
      `SELECT e.*, b.monthly_usd, b.per_run_usd FROM (${ESTIMATE_SQL}) e LEFT JOIN organization_budgets b ON b.organization_id = $1`,
      [q.organizationId, q.provider, judge],
    );
    const estimate = this.estimateOf(row, q.provider, q.model, now, judge);
    if (!limited(row.per_run_usd) && !limited(row.monthly_usd)) {
      // Nothing to check: the question's row is written under the lock held shared, in one statement
      // (the lock is taken before the row is written and held until the statement commits), unless the
      // question has its row already (a retried job's, or another attempt's writing at the same time,
      // whose commit the insert waits for): that row stands, and is the decision.
      if (await this.insert(this.dataSource, { ...q, call }, 'reserved', estimate.usd, now, undefined, 'shared')) return { ask: true };
      const own = await this.decided(this.dataSource, q, call);
      if (own) return own;
      // (No row after all: it was removed in between. Decided below, as a check would.)
    }
    return this.dataSource.transaction(async (m) => {
      await m.query(`SELECT pg_advisory_xact_lock(hashtextextended('answer_spend:' || $1::text, 0))`, [q.organizationId]);
      const own = await this.decided(m, q, call);
      if (own) return own;
      const budgets = await this.budgetsOf(m, q.organizationId);
      const committed = `coalesce(sum(CASE state WHEN 'settled' THEN usd WHEN 'reserved' THEN estimate_usd ELSE 0 END), 0)::float8`;
      const checks: { budget: 'run' | 'month'; limit: string | null | undefined; sql: string; params: unknown[] }[] = [
        { budget: 'run', limit: budgets?.per_run_usd, sql: `SELECT ${committed} AS c FROM answer_spend WHERE run_id = $1`, params: [q.runId] },
        { budget: 'month', limit: budgets?.monthly_usd, sql: `SELECT ${committed} AS c FROM answer_spend WHERE organization_id = $1 AND month = $2::date`, params: [q.organizationId, monthOf(now)] },
      ];
      for (const check of checks) {
        if (!limited(check.limit)) continue;
        const [{ c }]: { c: number }[] = await m.query(check.sql, check.params);
        const limitUsd = Number(check.limit);
        // Compared in millionths of a dollar, the ledger's precision.
        if (Math.round((c + estimate.usd) * 1e6) > Math.round(limitUsd * 1e6)) {
          await this.insert(m, { ...q, call }, 'not_asked', estimate.usd, now, { budget: check.budget, limitUsd, committedUsd: c });
          return { ask: false as const, budget: check.budget, limitUsd, committedUsd: c, estimateUsd: estimate.usd };
        }
      }
      await this.insert(m, { ...q, call }, 'reserved', estimate.usd, now);
      return { ask: true as const };
    });
  }

  /** The decision the question (or judge call) already has in the ledger (a retried job's), or null when it has none. */
  private async decided(m: { query: DataSource['query'] }, q: { runId: number; n: number }, call: string): Promise<SpendDecision | null> {
    const [own]: { state: string; estimate_usd: string; stopped_by: 'run' | 'month' | null; limit_usd: string | null; committed_usd: string | null }[] = await m.query(
      `SELECT state, estimate_usd, stopped_by, limit_usd, committed_usd FROM answer_spend WHERE run_id = $1 AND n = $2 AND call = $3`,
      [q.runId, q.n, call],
    );
    if (!own) return null;
    if (own.state === 'not_asked') {
      return { ask: false as const, budget: own.stopped_by ?? 'run', limitUsd: Number(own.limit_usd), committedUsd: Number(own.committed_usd), estimateUsd: Number(own.estimate_usd) };
    }
    return { ask: true as const };
  }

  private async budgetsOf(m: { query: DataSource['query'] }, organizationId: number): Promise<Budgets | undefined> {
    const [budgets]: Budgets[] = await m.query(`SELECT monthly_usd, per_run_usd FROM organization_budgets WHERE organization_id = $1`, [organizationId]);
    return budgets;
  }

  /**
   * Writes the question's row. `shared`: in one statement under the organisation's ledger lock held
   * shared, and nothing when the question already has its row (false).
   */
  private async insert(
    m: { query: DataSource['query'] },
    q: { organizationId: number; runId: number; n: number; provider: Provider; call: string },
    state: 'reserved' | 'not_asked',
    estimateUsd: number,
    now: Date,
    stop?: { budget: 'run' | 'month'; limitUsd: number; committedUsd: number },
    shared?: 'shared',
  ): Promise<boolean> {
    const values = `$1::bigint, $2::int, $3::bigint, $4::text, $5::date, $6::text, $7::numeric, $8::text, $9::numeric, $10::numeric, $11::timestamptz, $12::text`;
    const inserted: unknown[] = await m.query(
      `${shared ? `WITH ledger_lock AS (SELECT pg_advisory_xact_lock_shared(hashtextextended('answer_spend:' || $3::text, 0))) ` : ''}INSERT INTO answer_spend (run_id, n, organization_id, provider, month, state, estimate_usd, stopped_by, limit_usd, committed_usd, reserved_at, call)
       ${shared ? `SELECT ${values} FROM ledger_lock ON CONFLICT (run_id, n, call) DO NOTHING` : `VALUES (${values})`} RETURNING 1`,
      [q.runId, q.n, q.organizationId, q.provider, monthOf(now), state, estimateUsd.toFixed(6), stop?.budget ?? null, stop?.limitUsd ?? null, stop?.committedUsd.toFixed(6) ?? null, now, q.call],
    );
    return inserted.length > 0;
  }

  /** Settles question n of the run once it has ended: a recorded answer at its tokens' cost, a failure at 0. A question settled or not asked is left as it is. */
  async settle(runId: number, n: number, ending: AnswerRecorded | AnswerFailed): Promise<void> {
    let usd = 0;
    let tokens: TokenUsage | null = null;
    let model: string | null = null;
    if (ending.type === 'answer.recorded') {
      const d = ending.data;
      model = d.model;
      tokens = { inputTokens: d.usage?.inputTokens ?? 0, cachedInputTokens: d.usage?.cachedInputTokens ?? 0, outputTokens: d.usage?.outputTokens ?? 0 };
      const price = priceOn(this.config.prices, d.provider, d.model, d.askedAt.slice(0, 10));
      usd = price ? costUsd(tokens, 1, price) : 0;
    }
    await this.settleCall(runId, n, 'answer', usd, model, tokens);
  }

  /** Settles a judge call (`call` as reserved) once it has ended: its reported tokens at the judge's price (tokens only), or 0 when it failed (usage null). */
  async settleJudge(runId: number, n: number, call: string, billing: { provider: Provider; model: string }, usage: { inputTokens: number | null; outputTokens: number | null } | null, at: Date = new Date()): Promise<void> {
    const tokens: TokenUsage | null = usage ? { inputTokens: usage.inputTokens ?? 0, cachedInputTokens: 0, outputTokens: usage.outputTokens ?? 0 } : null;
    const price = priceOn(this.config.prices, billing.provider, billing.model, at.toISOString().slice(0, 10));
    await this.settleCall(runId, n, call, tokens && price ? costUsd(tokens, 0, price) : 0, billing.model, tokens);
  }

  private async settleCall(runId: number, n: number, call: string, usd: number, model: string | null, tokens: TokenUsage | null): Promise<void> {
    await this.dataSource.query(
      `UPDATE answer_spend SET state = 'settled', usd = $4, model = $5, input_tokens = $6, cached_input_tokens = $7, output_tokens = $8, settled_at = now()
        WHERE run_id = $1 AND n = $2 AND call = $3 AND state = 'reserved'`,
      [runId, n, call, usd.toFixed(6), model, tokens?.inputTokens ?? null, tokens?.cachedInputTokens ?? null, tokens?.outputTokens ?? null],
    );
  }
}
