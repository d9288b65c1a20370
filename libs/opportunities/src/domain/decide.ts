import { ALLOWED_TRANSITIONS, isTerminal, type OpportunityType, type Severity, type Status } from './lifecycle';
import type { OpportunityEvent, OutcomeFigures, OutcomeFinalized } from './opportunity.events';
import type { OpportunityState } from './opportunity';
import { DEFAULT_SLA_POLICY, dueAt, type SlaPolicy } from './sla-policy';

/** What a detector (or an API caller) reports about a problem. */
export interface DetectionReport {
  organizationId: number;
  brandId: number;
  type: OpportunityType;
  severity: Severity;
  title: string;
  description?: string | null;
  evidence?: Record<string, unknown>;
  source: string;
}

export type OpportunityCommand =
  | ({ kind: 'detect'; id: number; fingerprint: string; recurrenceOf?: number | null; slaPolicy?: SlaPolicy; now: Date } & DetectionReport)
  | { kind: 'transition'; toStatus: Status; reason?: string | null; owner?: string | null; now: Date }
  | { kind: 'record_verification'; status: 'passed' | 'failed'; details?: Record<string, unknown>; now: Date }
  | ({ kind: 'finalize_outcome'; now: Date } & OutcomeFigures);

/** Why a command was refused; the API maps each kind to its status and code. */
export class OpportunityRuleError extends Error {
  override readonly name = 'OpportunityRuleError';
  constructor(
    readonly rule:
      | 'invalid_transition'
      | 'owner_required'
      | 'already_exists'
      | 'not_found'
      | 'verification_not_expected'
      | 'verification_already_recorded'
      | 'outcome_not_expected'
      | 'outcome_already_final'
      | 'conflict',
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

/** The pure decision: given the current state and a command, the events to append (or a rule error). */
export function decide(state: OpportunityState | null, command: OpportunityCommand): OpportunityEvent[] {
  const at = command.now.toISOString();
  if (command.kind === 'detect') {
    if (state) throw new OpportunityRuleError('already_exists', `opportunity ${state.id} already exists`);
    const policy = command.slaPolicy ?? DEFAULT_SLA_POLICY;
    return [
      {
        type: 'opportunity.detected',
        data: {
          id: command.id,
          organizationId: command.organizationId,
          brandId: command.brandId,
          type: command.type,
          severity: command.severity,
          title: command.title,
          description: command.description ?? null,
          fingerprint: command.fingerprint,
          source: command.source,
          evidence: command.evidence ?? {},
          recurrenceOf: command.recurrenceOf ?? null,
          slaPolicy: policy.name,
          dueAt: dueAt(command.now, command.severity, policy).toISOString(),
          detectedAt: at,
        },
      },
    ];
  }
  if (!state) throw new OpportunityRuleError('not_found', 'the opportunity does not exist');
  switch (command.kind) {
    case 'transition': {
      const from = state.status;
      const to = command.toStatus;
      const allowed = ALLOWED_TRANSITIONS[from];
      if (!allowed.includes(to)) {
        const why = from === to ? `it is already ${to}` : isTerminal(from) ? `${from} is terminal` : `the lifecycle does not allow ${from} → ${to}`;
        throw new OpportunityRuleError('invalid_transition', `Cannot move from ${from} to ${to}: ${why}`, { from, to, allowed: [...allowed] });
      }
      const owner = command.owner?.trim() || null;
      if (to === 'assigned' && !owner && !state.owner) {
        throw new OpportunityRuleError('owner_required', 'Moving to assigned needs an owner (give owner, or set one earlier)', { from, to });
      }
      return [{ type: 'opportunity.transitioned', data: { from, to, reason: command.reason ?? null, owner, at } }];
    }
    case 'record_verification':
      if (state.status !== 'fix_deployed' && state.status !== 'verifying') {
        throw new OpportunityRuleError('verification_not_expected', `A verification is recorded after a fix is deployed; the opportunity is ${state.status}`, {
          status: state.status,
        });
      }
      // One verdict per deployed fix (deploying a fix again makes it pending): two passes judging the same fix at once record it once.
      if (state.verification.status === 'passed' || state.verification.status === 'failed') {
        throw new OpportunityRuleError('verification_already_recorded', `This fix's verification is already recorded (${state.verification.status}); deploying a fix again starts a new one`, {
          status: state.verification.status,
          checkedAt: state.verification.checkedAt,
        });
      }
      return [{ type: 'opportunity.verification_recorded', data: { status: command.status, details: command.details ?? {}, checkedAt: at } }];
    case 'finalize_outcome': {
      if (state.status !== 'resolved') {
        throw new OpportunityRuleError('outcome_not_expected', `An outcome is finalised for a resolved opportunity; this one is ${state.status}`, { status: state.status });
      }
      if (state.outcome) throw new OpportunityRuleError('outcome_already_final', 'The outcome of this opportunity is already final');
      const data: OutcomeFinalized['data'] = {
        citationRateBefore: command.citationRateBefore,
        citationRateAfter: command.citationRateAfter,
        aiTrafficBefore: command.aiTrafficBefore,
        aiTrafficAfter: command.aiTrafficAfter,
        conversions: command.conversions,
        revenue: command.revenue,
        currency: command.currency ?? 'USD',
        mentionRateBefore: command.mentionRateBefore ?? null,
        mentionRateAfter: command.mentionRateAfter ?? null,
        measured: command.measured ?? null,
        finalizedAt: at,
      };
      return [{ type: 'opportunity.outcome_finalized', data }];
    }
  }
}
