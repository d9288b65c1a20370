import { crawlBlock, crawlBlockFingerprint, type BotDailyRow, type CrawlBlockInput } from './crawl-block.detector';
import { DEFAULT_THRESHOLDS } from './thresholds';

const row = (botName: string, day: string, visits: number, errorVisits: number, host = 'acme.com'): BotDailyRow => ({ day, host, botName, category: botName === 'GPTBot' ? 'training' : 'search', visits, errorVisits });
const input = (rows: BotDailyRow[], open: string[] = []): CrawlBlockInput => ({ brandId: 7, brandName: 'Acme', rows, openFingerprints: new Set(open), thresholds: DEFAULT_THRESHOLDS });

describe('crawl_block', () => {
  it('reports an AI agent answered 4xx/5xx on a share significantly above maxErrorShare, with the figures and the test', () => {
    // GPTBot: 60 errors in 200 visits over two days and two hosts (30 %, allowed 10 %); PerplexityBot: 2 in 100 (fine).
    const rows = [row('GPTBot', '2026-11-23', 100, 40), row('GPTBot', '2026-11-24', 80, 10), row('GPTBot', '2026-11-24', 20, 10, 'shop.acme.com'), row('PerplexityBot', '2026-11-24', 100, 2)];
    const out = crawlBlock(input(rows));
    expect(out).toHaveLength(1);
    const d = out[0];
    expect(d).toMatchObject({
      type: 'crawl_block',
      fingerprint: 'crawl_block:7:GPTBot',
      severity: 'high', // Cohen's h 0.52
      title: "GPTBot is blocked on Acme's site",
      evidence: {
        detector: 'crawl_block',
        scope: { brandId: 7, botName: 'GPTBot', category: 'training' },
        errorShare: { k: 60, n: 200, value: 0.3 },
        byHost: [
          { host: 'acme.com', errorVisits: 50, n: 180 },
          { host: 'shop.acme.com', errorVisits: 10, n: 20 },
        ],
        test: { alpha: 0.05, maxErrorShare: 0.1 },
        windows: { days: { from: '2026-11-23', to: '2026-11-24' } },
      },
    });
    const share = d.evidence.errorShare as { low: number; high: number };
    expect(share.low).toBeGreaterThan(0.1);
    expect(share.high).toBeLessThan(0.4);
    expect((d.evidence.test as { pValue: number }).pValue).toBeLessThan(0.0001);
    expect(d.description).toContain('60 of 200 visits by GPTBot were answered 4xx/5xx (30%)');
  });

  it('nothing below the threshold, or above it but not significantly', () => {
    expect(crawlBlock(input([row('GPTBot', '2026-11-24', 1000, 80)]))).toEqual([]); // 8 %
    expect(crawlBlock(input([row('GPTBot', '2026-11-24', 30, 5)]))).toEqual([]); // 16.7 % of 30: p ≈ 0.11
  });

  it('nothing on a sample below minSamples, however bad', () => {
    expect(crawlBlock(input([row('GPTBot', '2026-11-24', 4, 4)]))).toEqual([]);
    expect(crawlBlock({ ...input([row('GPTBot', '2026-11-24', 40, 40)]), thresholds: { ...DEFAULT_THRESHOLDS, minSamples: 50 } })).toEqual([]);
    expect(crawlBlock(input([]))).toEqual([]);
  });

  it('an agent whose problem is already open is not reported again; the others are', () => {
    const rows = [row('GPTBot', '2026-11-24', 100, 100), row('ClaudeBot', '2026-11-24', 100, 100)];
    const out = crawlBlock(input(rows, [crawlBlockFingerprint(7, 'GPTBot')]));
    expect(out.map((d) => [d.fingerprint, d.severity])).toEqual([['crawl_block:7:ClaudeBot', 'critical']]);
  });
});
