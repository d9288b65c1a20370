import { addGroup, completePriceEntry, costUsd, DEFAULT_PRICES, emptyCost, priceEntryProblem, priceOn, type PriceEntry } from './pricing';
import { PROVIDERS } from './providers';

const line = (over: Partial<PriceEntry>): PriceEntry => ({ provider: 'chatgpt', model: 'gpt-4.1', since: '2025-01-01', inputPerMTok: 2, cachedInputPerMTok: 0.5, outputPerMTok: 8, requestUsd: 0, ...over });

describe('the price table', () => {
  it('prices a dated snapshot at its base model, the longest model prefix winning', () => {
    expect(priceOn(DEFAULT_PRICES, 'chatgpt', 'gpt-4.1-mini-2025-04-14', '2026-11-27')?.model).toBe('gpt-4.1-mini');
    expect(priceOn(DEFAULT_PRICES, 'chatgpt', 'gpt-4.1-2025-04-14', '2026-11-27')?.model).toBe('gpt-4.1');
    expect(priceOn(DEFAULT_PRICES, 'claude', 'claude-sonnet-4-6', '2026-11-27')?.inputPerMTok).toBe(3);
    expect(priceOn(DEFAULT_PRICES, 'gemini', 'gemini-2.5-flash-lite', '2026-11-27')?.model).toBe('gemini-2.5-flash-lite');
    // A prefix that is not a whole model-name segment is another model.
    expect(priceOn(DEFAULT_PRICES, 'chatgpt', 'gpt-4.10', '2026-11-27')).toBeNull();
    expect(priceOn(DEFAULT_PRICES, 'perplexity', 'gpt-4.1', '2026-11-27')).toBeNull();
  });

  it('takes the line in force on the day, so a later price never rewrites an earlier day', () => {
    const table = [line({ since: '2025-01-01', inputPerMTok: 2 }), line({ since: '2026-06-01', inputPerMTok: 1 })];
    expect(priceOn(table, 'chatgpt', 'gpt-4.1', '2026-05-31')?.inputPerMTok).toBe(2);
    expect(priceOn(table, 'chatgpt', 'gpt-4.1', '2026-06-01')?.inputPerMTok).toBe(1);
    expect(priceOn(table, 'chatgpt', 'gpt-4.1', '2024-12-31')).toBeNull();
  });

  it('costs cached input at its own price, output at its price, and each request its fee', () => {
    const price = line({ inputPerMTok: 2, cachedInputPerMTok: 0.5, outputPerMTok: 8, requestUsd: 0.01 });
    // 800k fresh input ($1.60) + 200k cached ($0.10) + 100k output ($0.80) + 2 requests ($0.02)
    expect(costUsd({ inputTokens: 1_000_000, cachedInputTokens: 200_000, outputTokens: 100_000 }, 2, price)).toBeCloseTo(2.52, 10);
    // Cached input beyond the input (a provider's inconsistency) is capped at the input.
    expect(costUsd({ inputTokens: 100, cachedInputTokens: 500, outputTokens: 0 }, 0, price)).toBeCloseTo((100 * 0.5) / 1e6, 12);
  });

  it('sums groups and counts those without a price apart', () => {
    const figure = emptyCost();
    addGroup(figure, { provider: 'chatgpt', model: 'gpt-4.1', day: '2026-01-01', requests: 1, inputTokens: 1e6, cachedInputTokens: 0, outputTokens: 0 }, [line({})]);
    addGroup(figure, { provider: 'chatgpt', model: 'o9', day: '2026-01-01', requests: 3, inputTokens: 10, cachedInputTokens: 0, outputTokens: 5 }, [line({})]);
    expect(figure).toEqual({ inputTokens: 1e6 + 10, cachedInputTokens: 0, outputTokens: 5, usd: 2, unpricedAnswers: 3 });
  });

  it('checks configured lines and fills their optional prices', () => {
    expect(priceEntryProblem({ provider: 'chatgpt', model: 'gpt-x', since: '2026-01-01', inputPerMTok: 1, outputPerMTok: 2 }, PROVIDERS)).toBeNull();
    expect(priceEntryProblem({ provider: 'bing', model: 'x', since: '2026-01-01', inputPerMTok: 1, outputPerMTok: 2 }, PROVIDERS)).toMatch(/provider/);
    expect(priceEntryProblem({ provider: 'chatgpt', model: 'x', since: '2026-01-01', inputPerMTok: -1, outputPerMTok: 2 }, PROVIDERS)).toMatch(/inputPerMTok/);
    expect(priceEntryProblem({ provider: 'chatgpt', model: 'x', since: 'soon', inputPerMTok: 1, outputPerMTok: 2 }, PROVIDERS)).toMatch(/since/);
    expect(priceEntryProblem({ provider: 'chatgpt', model: 'x', since: '2026-01-01', inputPerMTok: 1, outputPerMTok: 2, extra: 1 }, PROVIDERS)).toMatch(/extra/);
    expect(completePriceEntry({ provider: 'chatgpt', model: 'x', since: '2026-01-01', inputPerMTok: 1, outputPerMTok: 2 })).toMatchObject({ cachedInputPerMTok: 1, requestUsd: 0 });
  });
});
