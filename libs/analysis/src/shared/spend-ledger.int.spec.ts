import type { DataSource } from 'typeorm';
import { loadConfig, sectionOf } from '@libs/config';
import { createDataSource } from '@libs/database';
import { TenancyRepository } from '@libs/tenancy';
import { createTestDatabase, type TestDatabase } from '../../../../test/support/test-database';
import { ANALYSIS_CONFIG } from '../analysis.config';
import { BudgetsRepository } from '../budgets.repository';
import type { AnswerRecorded } from '../domain';
import { SpendLedger } from './spend-ledger';

/**
 * The spend ledger on PostgreSQL: questions racing for a run's budget (jobs of one run on several
 * workers) get exactly as many reservations as fit; a question asks again (a retry) with the
 * decision it got, counted once; settling is once. gpt-4.1-mini's typical question (8,000 in,
 * 600 out, one search) costs $0.01416 at the default prices.
 */
const TYPICAL_USD = (8000 * 0.4 + 600 * 1.6) / 1e6 + 0.01;
let db: TestDatabase;
let ds: DataSource;
let ledger: SpendLedger;
let budgets: BudgetsRepository;
let organizationId: number;

beforeAll(async () => {
  db = await createTestDatabase();
  ds = createDataSource(db.url, 12);
  await ds.initialize();
  const config = loadConfig({ DATABASE_URL: db.url }, [ANALYSIS_CONFIG]);
  ledger = new SpendLedger(ds, sectionOf(config, ANALYSIS_CONFIG));
  budgets = new BudgetsRepository(ds);
  organizationId = (await new TenancyRepository(ds).createOrganization('Ledger', 'enterprise')).id;
});
afterAll(async () => {
  await ds?.destroy();
  await db?.drop();
});

const question = (runId: number, n: number) => ({ organizationId, runId, n, provider: 'chatgpt' as const, model: 'gpt-4.1-mini' });
const states = async (runId: number) =>
  ((await ds.query(`SELECT n, state FROM answer_spend WHERE run_id = $1 ORDER BY n`, [runId])) as { n: number; state: string }[]).map((r) => r.state);

describe('the spend ledger', () => {
  it('gives a run exactly the reservations its budget holds, however many questions race for it', async () => {
    await budgets.set(organizationId, { perRunUsd: Number((3.5 * TYPICAL_USD).toFixed(6)) });
    const decisions = await Promise.all(Array.from({ length: 10 }, (_, n) => ledger.reserve(question(1, n))));
    expect(decisions.filter((d) => d.ask)).toHaveLength(3);
    expect((await states(1)).filter((s) => s === 'reserved')).toHaveLength(3);
    expect((await states(1)).filter((s) => s === 'not_asked')).toHaveLength(7);
    const stopped = decisions.find((d) => !d.ask);
    expect(stopped).toMatchObject({ ask: false, budget: 'run', limitUsd: Number((3.5 * TYPICAL_USD).toFixed(6)), estimateUsd: expect.closeTo(TYPICAL_USD, 6) });
  });

  it('a retried question keeps its decision and is counted once; settling happens once', async () => {
    await budgets.set(organizationId, { perRunUsd: Number((1.5 * TYPICAL_USD).toFixed(6)) });
    expect(await ledger.reserve(question(2, 0))).toEqual({ ask: true });
    expect(await ledger.reserve(question(2, 1))).toMatchObject({ ask: false, budget: 'run' });
    // The job of question 0 died after reserving and is retried: it may ask, and nothing more is reserved.
    expect(await ledger.reserve(question(2, 0))).toEqual({ ask: true });
    expect(await ledger.reserve(question(2, 1))).toMatchObject({ ask: false, budget: 'run' });
    expect(await states(2)).toEqual(['reserved', 'not_asked']);

    const recorded: AnswerRecorded = {
      type: 'answer.recorded',
      data: {
        runId: 2, n: 0, organizationId, brandId: 1, promptId: null, query: 'q', provider: 'chatgpt', model: 'gpt-4.1-mini-2025-04-14', source: 'live', text: 'a',
        providerCitations: [], usage: { inputTokens: 1_000_000, cachedInputTokens: 0, outputTokens: 0 }, latencyMs: 1, askedAt: new Date().toISOString(), raw: null,
      },
    };
    await ledger.settle(2, 0, recorded);
    // Settled again by a retry with other figures: the first settlement stands.
    await ledger.settle(2, 0, { ...recorded, data: { ...recorded.data, usage: { inputTokens: 5, cachedInputTokens: 0, outputTokens: 5 } } });
    const [row] = await ds.query(`SELECT state, usd::float8 AS usd, input_tokens::int AS input FROM answer_spend WHERE run_id = 2 AND n = 0`);
    expect(row).toEqual({ state: 'settled', usd: expect.closeTo(0.4 + 0.01, 6), input: 1_000_000 });
    // The month counts what was settled, the questions in flight at their estimate, and not what was not asked.
    const month = await budgets.monthSpend(organizationId);
    expect(month.spentUsd).toBeCloseTo(0.41, 6);
    expect(month.reservedUsd).toBeCloseTo(3 * TYPICAL_USD, 6);
  });

  it('a monthly budget counts every run of the organisation', async () => {
    await budgets.set(organizationId, { perRunUsd: null, monthlyUsd: 0 });
    expect(await ledger.reserve(question(3, 0))).toMatchObject({ ask: false, budget: 'month', limitUsd: 0 });
    await budgets.set(organizationId, { monthlyUsd: null });
    expect(await ledger.reserve(question(3, 1))).toEqual({ ask: true });
  });

  const sleep = (ms: number) => new Promise<'waiting'>((r) => setTimeout(() => r('waiting'), ms));

  /** Runs `during` while another transaction holds the organisation's ledger lock (shared: a reservation in hand; exclusive: a check), then commits it (`commit`). */
  async function whileLockHeld(mode: 'shared' | 'exclusive', during: (commit: () => Promise<void>) => Promise<void>): Promise<void> {
    const holder = ds.createQueryRunner();
    await holder.connect();
    await holder.startTransaction();
    try {
      await holder.query(`SELECT pg_advisory_xact_lock${mode === 'shared' ? '_shared' : ''}(hashtextextended('answer_spend:' || $1::text, 0))`, [organizationId]);
      await during(() => holder.commitTransaction());
    } finally {
      if (holder.isTransactionActive) await holder.rollbackTransaction();
      await holder.release();
    }
  }

  it("without budgets, reservations share the organisation's lock (none waits for another); a check waits for those in hand", async () => {
    await budgets.set(organizationId, { perRunUsd: null, monthlyUsd: null });
    // Another reservation of the organisation in hand, not yet committed: it holds the ledger lock shared.
    await whileLockHeld('shared', async (commit) => {
      expect(await Promise.race([ledger.reserve(question(4, 0)), sleep(10_000)])).toEqual({ ask: true });
      // A budget to check: the check waits until the reservation in hand is committed (its sums then count it).
      await budgets.set(organizationId, { perRunUsd: 100 });
      const checked = ledger.reserve(question(4, 1));
      expect(await Promise.race([checked, sleep(300)])).toBe('waiting');
      await commit();
      expect(await checked).toEqual({ ask: true });
    });
    expect(await states(4)).toEqual(['reserved', 'reserved']);
  });

  it('without budgets, a reservation (one statement) still waits for a check in hand, then writes its row', async () => {
    await budgets.set(organizationId, { perRunUsd: null, monthlyUsd: null });
    // A check of the organisation in hand: it holds the ledger lock exclusively.
    await whileLockHeld('exclusive', async (commit) => {
      const reserving = ledger.reserve(question(6, 0));
      expect(await Promise.race([reserving, sleep(300)])).toBe('waiting');
      expect(await states(6)).toEqual([]);
      await commit();
      expect(await reserving).toEqual({ ask: true });
    });
    expect(await states(6)).toEqual(['reserved']);
    // Given again (a retried job): the row stands, nothing is written twice.
    expect(await ledger.reserve(question(6, 0))).toEqual({ ask: true });
    expect(await states(6)).toEqual(['reserved']);
  });

  it('without budgets, attempts of one question racing each other all get its one reservation', async () => {
    await budgets.set(organizationId, { perRunUsd: null, monthlyUsd: null });
    const decisions = await Promise.all(Array.from({ length: 5 }, () => ledger.reserve(question(5, 0))));
    expect(decisions).toEqual(Array.from({ length: 5 }, () => ({ ask: true })));
    expect(await states(5)).toEqual(['reserved']);
  });
});
