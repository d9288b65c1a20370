import { ConfigError, loadConfig, sectionOf } from '@libs/config';
import { RATE_LIMIT_CONFIG } from './rate-limit.config';

const problems = (env: Record<string, string>): string[] => {
  try {
    loadConfig(env, [RATE_LIMIT_CONFIG]);
    return [];
  } catch (error) {
    return (error as ConfigError).problems;
  }
};

describe('QUOTA_TIERS', () => {
  it('takes per-tier overrides of the quotas (0: none at all)', () => {
    expect(sectionOf(loadConfig({ QUOTA_TIERS: '{"free":{"pageAuditPagesPerDay":50,"auditRequestsPerMonth":0}}' }, [RATE_LIMIT_CONFIG]), RATE_LIMIT_CONFIG).quotaTiers).toEqual({
      free: { pageAuditPagesPerDay: 50, auditRequestsPerMonth: 0 },
    });
    expect(sectionOf(loadConfig({}, [RATE_LIMIT_CONFIG]), RATE_LIMIT_CONFIG).quotaTiers).toEqual({});
  });

  it('refuses a bad value with one line naming the variable and what is wrong', () => {
    for (const [value, why] of [
      ['nope', /is not JSON/],
      ['[]', /must be a JSON object keyed by tier/],
      ['{"gold":{}}', /unknown tier "gold"/],
      ['{"free":{"pagesPerDay":1}}', /free\.pagesPerDay is not one of pageAuditPagesPerDay, pageAuditPagesPerMonth, auditRequestsPerDay or auditRequestsPerMonth/],
      ['{"free":{"auditRequestsPerDay":-1}}', /must be an integer ≥ 0/],
      ['{"free":{"auditRequestsPerDay":1.5}}', /must be an integer ≥ 0/],
    ] as const) {
      expect(problems({ QUOTA_TIERS: value })).toEqual([expect.stringMatching(new RegExp(`^QUOTA_TIERS: .*${why.source}`))]);
    }
    // RATE_LIMIT_TIERS keeps its own fields and minimums.
    expect(problems({ RATE_LIMIT_TIERS: '{"free":{"perDay":0}}' })).toEqual([expect.stringMatching(/^RATE_LIMIT_TIERS: .*free\.perDay must be an integer ≥ 1/)]);
    expect(problems({ RATE_LIMIT_TIERS: '{"free":{"perHour":5}}' })).toEqual([expect.stringMatching(/free\.perHour is not perMinute, perDay or burst/)]);
  });
});
