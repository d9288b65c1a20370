import { fold, type OpportunityState } from '../domain/opportunity';
import type { OpportunityEvent } from '../domain/opportunity.events';
import { detectedEvent } from '../testing';
import { completeRecordDocument, recordDocument, toRecord } from './opportunity-row';

const T0 = new Date('2026-01-01T00:00:00Z');
const at = (hours: number) => new Date(T0.getTime() + hours * 3_600_000).toISOString();

const detected = (overrides: Parameters<typeof detectedEvent>[1] = {}) => detectedEvent(T0, overrides);

const move = (from: string, to: string, hours: number, owner: string | null = null): OpportunityEvent =>
  ({ type: 'opportunity.transitioned', data: { from, to, reason: 'because', owner, at: at(hours) } }) as OpportunityEvent;

const STATES: Record<string, OpportunityState> = {
  fresh: fold([detected()])!,
  assigned: fold([detected(), move('detected', 'assigned', 1, 'ana')])!,
  // Text that JSON must escape, non-ASCII, nested evidence, and evidence holding the SLA's own words.
  awkward: fold([
    detected({
      title: 'Quotes " and \\ backslash, émoji 🚀, line\nbreak',
      description: '</script>\u2028',
      evidence: { nested: { list: [1, 'two', null] }, sla: { breached: false, breachedAt: null }, dueAt: 'x' },
      recurrenceOf: 3,
    }),
  ])!,
  resolved: fold([
    detected({ severity: 'critical', dueAt: at(24) }),
    move('detected', 'assigned', 1, 'bo'),
    move('assigned', 'in_progress', 2),
    move('in_progress', 'fix_deployed', 3),
    move('fix_deployed', 'verifying', 4),
    { type: 'opportunity.verification_recorded', data: { status: 'passed', details: { checks: 3 }, checkedAt: at(5) } },
    move('verifying', 'resolved', 6),
    {
      type: 'opportunity.outcome_finalized',
      data: { citationRateBefore: 0.1, citationRateAfter: 0.25, aiTrafficBefore: 10, aiTrafficAfter: 30, conversions: 4, revenue: 120.5, currency: 'EUR', finalizedAt: at(700) },
    },
  ])!,
};

describe('the stored record document', () => {
  // Before the due time, just after it, and long after (breached unless terminal).
  const moments = [new Date(T0.getTime() + 3_600_000), new Date(T0.getTime() + 73 * 3_600_000), new Date(T0.getTime() + 10_000 * 3_600_000)];

  it.each(Object.keys(STATES))('completed, is exactly the JSON of the record (%s), breached or not', (name) => {
    const state = STATES[name];
    for (const now of moments) {
      const record = toRecord(state, now);
      expect(completeRecordDocument(recordDocument(state), record.sla.breached)).toBe(JSON.stringify(record));
    }
  });

  it('says breached, with the due time, only for an open opportunity past due', () => {
    const late = new Date(T0.getTime() + 100 * 3_600_000);
    const open = JSON.parse(completeRecordDocument(recordDocument(STATES.assigned), toRecord(STATES.assigned, late).sla.breached));
    expect(open.sla).toEqual({ policy: 'default', dueAt: at(72), breached: true, breachedAt: at(72) });
    const done = toRecord(STATES.resolved, late);
    expect(done.sla.breached).toBe(false);
    expect(JSON.parse(completeRecordDocument(recordDocument(STATES.resolved), false)).sla).toEqual({ policy: 'default', dueAt: at(24), breached: false, breachedAt: null });
  });

  it('reads the due time from the end, whatever the evidence says', () => {
    const doc = completeRecordDocument(recordDocument(STATES.awkward), true);
    expect(JSON.parse(doc).sla.breachedAt).toBe(at(72));
    expect(JSON.parse(doc).evidence).toEqual({ nested: { list: [1, 'two', null] }, sla: { breached: false, breachedAt: null }, dueAt: 'x' });
  });
});
