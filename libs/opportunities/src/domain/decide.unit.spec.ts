import { ALLOWED_TRANSITIONS, STATUSES, type Status } from './lifecycle';
import { decide, OpportunityRuleError, type OpportunityCommand } from './decide';
import { evolve, fold, type OpportunityState } from './opportunity';
import type { OpportunityEvent } from './opportunity.events';
import { detectedEvent } from '../testing';
import { deciderSpec } from '@libs/event-sourcing';
import { decodeOpportunityEvent, opportunityDecider } from './opportunity.decider';
import { asFingerprintClaim } from './fingerprint-claims';
import { EventDecodeError } from '@libs/event-sourcing';

const T0 = new Date('2026-01-01T00:00:00Z');
const later = (minutes: number) => new Date(T0.getTime() + minutes * 60_000);

const detected = detectedEvent(T0);

/** A shortest path of allowed moves from detected to each state. */
const PATH: Record<Status, Status[]> = {
  detected: [],
  triaged: ['triaged'],
  assigned: ['assigned'],
  in_progress: ['assigned', 'in_progress'],
  fix_deployed: ['assigned', 'in_progress', 'fix_deployed'],
  verifying: ['assigned', 'in_progress', 'fix_deployed', 'verifying'],
  resolved: ['assigned', 'in_progress', 'fix_deployed', 'verifying', 'resolved'],
  regressed: ['assigned', 'in_progress', 'fix_deployed', 'verifying', 'regressed'],
  dismissed: ['dismissed'],
};

function history(to: Status): OpportunityEvent[] {
  const events: OpportunityEvent[] = [detected];
  let from: Status = 'detected';
  PATH[to].forEach((next, i) => {
    events.push({ type: 'opportunity.transitioned', data: { from, to: next, reason: null, owner: next === 'assigned' ? 'ana' : null, at: later(i + 1).toISOString() } });
    from = next;
  });
  return events;
}

/** given (events) / when (command) / then (events or a rule error), on the kit's decider spec. */
const spec = deciderSpec(opportunityDecider);
function given(events: OpportunityEvent[]) {
  return {
    when: (command: OpportunityCommand) => ({
      then: (expected: OpportunityEvent[] | { rule: OpportunityRuleError['rule']; details?: Record<string, unknown> }) => {
        const scenario = spec.given(events).when(command);
        if (Array.isArray(expected)) return void scenario.then(expected);
        const refusal = scenario.thenError((e): e is OpportunityRuleError => e instanceof OpportunityRuleError && e.rule === expected.rule);
        if (expected.details) expect(refusal.details).toEqual(expected.details);
      },
    }),
  };
}

describe('opportunity lifecycle: every (from, to) pair', () => {
  const pairs = STATUSES.flatMap((from) => STATUSES.map((to) => [from, to] as const));
  it('covers all 81 pairs', () => expect(pairs).toHaveLength(81));

  it.each(pairs)('%s → %s', (from, to) => {
    const now = later(100);
    const allowed = ALLOWED_TRANSITIONS[from];
    const scenario = given(history(from)).when({ kind: 'transition', toStatus: to, reason: 'because', owner: 'bo', now });
    if (allowed.includes(to)) {
      scenario.then([{ type: 'opportunity.transitioned', data: { from, to, reason: 'because', owner: 'bo', at: now.toISOString() } }]);
    } else {
      scenario.then({ rule: 'invalid_transition', details: { from, to, allowed: [...allowed] } });
    }
  });

  it('leaves nothing out of the terminal states', () => {
    expect(ALLOWED_TRANSITIONS.resolved).toEqual([]);
    expect(ALLOWED_TRANSITIONS.dismissed).toEqual([]);
  });
});

describe('opportunity rules', () => {
  it('detects with an SLA due time by severity', () => {
    const now = T0;
    given([])
      .when({ kind: 'detect', id: 7, organizationId: 1, brandId: 2, type: 'sov_drop', severity: 'high', title: 'Share of voice fell on ChatGPT', fingerprint: 'fp-1', source: 'detector:sov', evidence: { drop: 0.12 }, now })
      .then([detected]);
  });

  it('refuses to detect an opportunity twice', () => {
    given([detected])
      .when({ kind: 'detect', id: 7, organizationId: 1, brandId: 2, type: 'sov_drop', severity: 'high', title: 't', fingerprint: 'f', source: 's', now: T0 })
      .then({ rule: 'already_exists' });
  });

  it('refuses commands on an opportunity that does not exist', () => {
    given([]).when({ kind: 'transition', toStatus: 'triaged', now: T0 }).then({ rule: 'not_found' });
  });

  it('needs an owner to move to assigned, given now or set before', () => {
    given([detected]).when({ kind: 'transition', toStatus: 'assigned', now: T0 }).then({ rule: 'owner_required' });
    given([detected]).when({ kind: 'transition', toStatus: 'assigned', owner: '  ', now: T0 }).then({ rule: 'owner_required' });
    // assigned (owner ana) → triaged → assigned again without naming an owner: ana is kept.
    const back = [...history('assigned'), { type: 'opportunity.transitioned', data: { from: 'assigned', to: 'triaged', reason: null, owner: null, at: later(5).toISOString() } } as OpportunityEvent];
    given(back)
      .when({ kind: 'transition', toStatus: 'assigned', now: later(6) })
      .then([{ type: 'opportunity.transitioned', data: { from: 'triaged', to: 'assigned', reason: null, owner: null, at: later(6).toISOString() } }]);
    expect(fold(back)!.owner).toBe('ana');
  });

  it('records a verification only after a fix is deployed', () => {
    given(history('in_progress')).when({ kind: 'record_verification', status: 'passed', now: T0 }).then({ rule: 'verification_not_expected' });
    for (const s of ['fix_deployed', 'verifying'] as const) {
      given(history(s))
        .when({ kind: 'record_verification', status: 'failed', details: { citations: 0 }, now: later(50) })
        .then([{ type: 'opportunity.verification_recorded', data: { status: 'failed', details: { citations: 0 }, checkedAt: later(50).toISOString() } }]);
    }
  });

  it('records one verdict per deployed fix; deploying a fix again makes a new one expected', () => {
    const recorded = [...history('verifying'), { type: 'opportunity.verification_recorded' as const, data: { status: 'passed' as const, details: {}, checkedAt: later(60).toISOString() } }];
    given(recorded).when({ kind: 'record_verification', status: 'failed', now: later(61) }).then({ rule: 'verification_already_recorded' });
    const regressedAndRedeployed = [
      ...history('verifying'),
      { type: 'opportunity.verification_recorded' as const, data: { status: 'failed' as const, details: {}, checkedAt: later(60).toISOString() } },
      { type: 'opportunity.transitioned' as const, data: { from: 'verifying' as const, to: 'regressed' as const, reason: null, owner: null, at: later(61).toISOString() } },
      { type: 'opportunity.transitioned' as const, data: { from: 'regressed' as const, to: 'in_progress' as const, reason: null, owner: null, at: later(62).toISOString() } },
      { type: 'opportunity.transitioned' as const, data: { from: 'in_progress' as const, to: 'fix_deployed' as const, reason: null, owner: null, at: later(63).toISOString() } },
    ];
    given(regressedAndRedeployed)
      .when({ kind: 'record_verification', status: 'passed', now: later(70) })
      .then([{ type: 'opportunity.verification_recorded', data: { status: 'passed', details: {}, checkedAt: later(70).toISOString() } }]);
  });

  it('finalises an outcome once, for a resolved opportunity only', () => {
    const outcome = { citationRateBefore: 0.1, citationRateAfter: 0.3, aiTrafficBefore: 100, aiTrafficAfter: 180, conversions: 4, revenue: 1200 };
    given(history('verifying')).when({ kind: 'finalize_outcome', ...outcome, now: T0 }).then({ rule: 'outcome_not_expected' });
    const resolved = history('resolved');
    given(resolved)
      .when({ kind: 'finalize_outcome', ...outcome, now: later(60) })
      .then([{ type: 'opportunity.outcome_finalized', data: { ...outcome, currency: 'USD', mentionRateBefore: null, mentionRateAfter: null, measured: null, finalizedAt: later(60).toISOString() } }]);
    const final = [...resolved, ...decide(fold(resolved), { kind: 'finalize_outcome', ...outcome, now: later(60) })];
    given(final).when({ kind: 'finalize_outcome', ...outcome, now: later(61) }).then({ rule: 'outcome_already_final' });
  });
});

describe('evolve', () => {
  it('folds a history into the state, counting the version', () => {
    const s = fold(history('resolved')) as OpportunityState;
    expect(s).toMatchObject({ status: 'resolved', owner: 'ana', version: 5, resolvedAt: later(5).toISOString(), verification: { status: 'pending' } });
    const verified = evolve(s, { type: 'opportunity.verification_recorded', data: { status: 'passed', details: {}, checkedAt: later(9).toISOString() } });
    expect(verified.verification).toEqual({ status: 'passed', checkedAt: later(9).toISOString(), details: {} });
    expect(verified.version).toBe(6);
  });

  it('refuses an event before detection', () => {
    expect(() => evolve(null, { type: 'opportunity.transitioned', data: { from: 'detected', to: 'triaged', reason: null, owner: null, at: T0.toISOString() } })).toThrow();
  });
});

describe('decoding recorded events', () => {
  it('types the opportunity events, checks their data and leaves other events alone', () => {
    expect(decodeOpportunityEvent(detected)).toEqual(detected);
    expect(decodeOpportunityEvent({ type: 'webhook.test', data: {} })).toBeNull();
    expect(() => decodeOpportunityEvent({ type: 'opportunity.transitioned', data: { from: 'detected', to: 7, reason: null, owner: null, at: T0.toISOString() } })).toThrow(EventDecodeError);
    expect(() => decodeOpportunityEvent({ type: 'opportunity.transitioned', data: { from: 'detected', to: 'triaged', owner: null, at: T0.toISOString() } })).toThrow(/reason is missing/);
  });

  it('types fingerprint claims, with or without the detection they carry', () => {
    const old = { type: 'opportunity.fingerprint_claimed', data: { opportunityId: 4, fingerprint: 'f' } };
    expect(asFingerprintClaim(old).data.detection).toBeUndefined();
    expect(() => asFingerprintClaim({ type: 'opportunity.fingerprint_claimed', data: { opportunityId: '4', fingerprint: 'f' } })).toThrow(/opportunityId is not a number/);
    expect(() => asFingerprintClaim(detected)).toThrow(/not a fingerprint claim/);
  });
});
