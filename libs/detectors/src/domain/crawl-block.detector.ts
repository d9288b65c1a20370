import type { Counts } from '@libs/metrics';
import type { Detection, Severity } from './answer-facts';
import { cohensH, evidenceRate, pct, pText, severityOf } from './significance';
import { flipRateTest } from './stability-alert.detector';
import type { Thresholds } from './thresholds';

/** One row of agent analytics' daily bot rollup (`agent_bot_daily`): an AI agent's visits to a brand's host on a day. */
export interface BotDailyRow {
  day: string;
  host: string;
  botName: string;
  category: string;
  visits: number;
  /** Visits answered 4xx/5xx. */
  errorVisits: number;
}

export interface CrawlBlockInput {
  brandId: number;
  brandName: string;
  /** The brand's rows of the days judged (every AI agent category: training, search, agent). */
  rows: readonly BotDailyRow[];
  openFingerprints: ReadonlySet<string>;
  thresholds: Pick<Thresholds, 'alpha' | 'minSamples' | 'maxErrorShare'>;
}

export interface CrawlBlockDetection extends Omit<Detection, 'type' | 'severity'> {
  type: 'crawl_block';
  severity: Severity;
}

export const crawlBlockFingerprint = (brandId: number, botName: string) => `crawl_block:${brandId}:${botName}`;

/**
 * crawl_block: an AI agent is answered 4xx/5xx on a share of its requests to the brand's sites
 * significantly above `maxErrorShare` (one-sided one-sample z-test, p < alpha), over at least
 * `minSamples` visits of the days given. One report per agent, fingerprint `crawl_block:<brand>:<bot>`;
 * an agent whose problem is open is not reported again.
 */
export function crawlBlock(input: CrawlBlockInput): CrawlBlockDetection[] {
  const t = input.thresholds;
  const byBot = new Map<string, { category: string; visits: number; errors: number; days: Set<string>; hosts: Map<string, Counts> }>();
  for (const r of input.rows) {
    const b = byBot.get(r.botName) ?? { category: r.category, visits: 0, errors: 0, days: new Set<string>(), hosts: new Map<string, Counts>() };
    b.visits += r.visits;
    b.errors += r.errorVisits;
    b.days.add(r.day);
    const h = b.hosts.get(r.host) ?? { k: 0, n: 0 };
    h.k += r.errorVisits;
    h.n += r.visits;
    b.hosts.set(r.host, h);
    byBot.set(r.botName, b);
  }
  const out: CrawlBlockDetection[] = [];
  for (const [botName, b] of [...byBot].sort((x, y) => x[0].localeCompare(y[0]))) {
    const fingerprint = crawlBlockFingerprint(input.brandId, botName);
    if (input.openFingerprints.has(fingerprint) || b.visits < t.minSamples) continue;
    const counts = { k: b.errors, n: b.visits };
    const test = flipRateTest(counts, t.maxErrorShare);
    if (test.pValue === null || test.pValue >= t.alpha) continue;
    const errorShare = evidenceRate(counts);
    const days = [...b.days].sort();
    out.push({
      type: 'crawl_block',
      fingerprint,
      severity: severityOf(cohensH(t.maxErrorShare, errorShare.value!)),
      title: `${botName} is blocked on ${input.brandName}'s site`,
      description: `${b.errors} of ${b.visits} visits by ${botName} were answered 4xx/5xx (${pct(errorShare.value)}), above the ${pct(t.maxErrorShare)} allowed, p ${pText(test.pValue)}.`,
      evidence: {
        detector: 'crawl_block',
        metric: 'errorShare',
        scope: { brandId: input.brandId, botName, category: b.category },
        errorShare,
        after: errorShare,
        byHost: [...b.hosts].sort((x, y) => y[1].k - x[1].k).map(([host, c]) => ({ host, errorVisits: c.k, ...evidenceRate(c) })),
        test: { name: 'one-sample z-test, error share above maxErrorShare (one-sided)', z: test.z, pValue: test.pValue, alpha: t.alpha, maxErrorShare: t.maxErrorShare, minSamples: t.minSamples },
        windows: { days: { from: days[0], to: days[days.length - 1] } },
      },
    });
  }
  return out;
}
