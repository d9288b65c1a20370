import { DEFAULT_SLA_POLICY, dueAt, slaAt } from './sla-policy';
import { deduplicate, defaultFingerprint } from './fingerprint';

const T0 = new Date('2026-01-01T00:00:00Z');
const hours = (h: number) => new Date(T0.getTime() + h * 3_600_000);

describe('SLA policy', () => {
  it.each([
    ['critical', 24],
    ['high', 72],
    ['medium', 168],
    ['low', 720],
  ] as const)('%s is due %i hours after detection', (severity, h) => {
    expect(dueAt(T0, severity)).toEqual(hours(h));
  });

  it("follows an organisation's own policy", () => {
    expect(dueAt(T0, 'critical', { ...DEFAULT_SLA_POLICY, name: 'strict', critical: 4 })).toEqual(hours(4));
  });

  it('is breached when a non-terminal opportunity is past due, as of now', () => {
    expect(slaAt('default', hours(24), 'triaged', hours(23))).toEqual({ policy: 'default', dueAt: hours(24).toISOString(), breached: false, breachedAt: null });
    expect(slaAt('default', hours(24), 'triaged', hours(25))).toEqual({ policy: 'default', dueAt: hours(24).toISOString(), breached: true, breachedAt: hours(24).toISOString() });
    expect(slaAt('default', hours(24), 'resolved', hours(25)).breached).toBe(false);
    expect(slaAt('default', hours(24), 'dismissed', hours(25)).breached).toBe(false);
  });
});

describe('fingerprint de-duplication', () => {
  it('derives the same fingerprint whatever the case, spacing and punctuation', () => {
    expect(defaultFingerprint(2, 'sov_drop', 'Share of voice fell!')).toBe(defaultFingerprint(2, 'sov_drop', '  share of VOICE   fell '));
    expect(defaultFingerprint(2, 'sov_drop', 'a')).not.toBe(defaultFingerprint(3, 'sov_drop', 'a'));
    expect(defaultFingerprint(2, 'sov_drop', 'a')).not.toBe(defaultFingerprint(2, 'schema_gap', 'a'));
  });

  it('returns the open opportunity while one is open', () => {
    expect(deduplicate([{ id: 4, status: 'in_progress', detectedAt: T0 }, { id: 2, status: 'resolved', detectedAt: T0 }])).toEqual({ kind: 'existing', id: 4 });
  });

  it('opens a new one linked to the latest resolved one when the problem recurs', () => {
    expect(deduplicate([{ id: 2, status: 'resolved', detectedAt: T0 }, { id: 5, status: 'resolved', detectedAt: hours(5) }, { id: 6, status: 'dismissed', detectedAt: hours(9) }])).toEqual({
      kind: 'new',
      recurrenceOf: 5,
    });
  });

  it('opens a new unlinked one after a dismissal, or the first time', () => {
    expect(deduplicate([{ id: 6, status: 'dismissed', detectedAt: T0 }])).toEqual({ kind: 'new', recurrenceOf: null });
    expect(deduplicate([])).toEqual({ kind: 'new', recurrenceOf: null });
  });
});
