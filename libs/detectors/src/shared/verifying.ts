import { Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { asOpportunityEvent, OpportunityRepository, RecordVerificationCommand, type OpportunityState } from '@libs/opportunities';
import type { VerificationDecision } from '../domain';

/** Who the loop acts as: its events say `system`. */
export const SYSTEM_ACTOR = { subject: 'system', actor: 'system' } as const;

export interface VerificationTally {
  passed: number[];
  failed: number[];
  waiting: number[];
}

/**
 * The verification step every detector pass shares: each `verifying` opportunity of a brand with
 * one of the given types is re-measured (`measure`, on what was recorded after its fix was
 * deployed); a verdict is recorded and moves it to `resolved` or `regressed` (actor `system`,
 * the reason naming the figures); waiting leaves it as it is. A verdict recorded by an earlier
 * pass that stopped before moving the opportunity is applied, not measured again.
 */
@Injectable()
export class VerifyingOpportunities {
  constructor(
    private readonly commands: CommandBus,
    private readonly repository: OpportunityRepository,
    private readonly dataSource: DataSource,
  ) {}

  async settle(
    organizationId: number,
    brandId: number,
    types: readonly string[],
    measure: (state: OpportunityState, fixedAt: Date) => Promise<VerificationDecision | null>,
    correlationId: string,
    asOf?: Date,
  ): Promise<VerificationTally> {
    const out: VerificationTally = { passed: [], failed: [], waiting: [] };
    const rows: { id: string }[] = await this.dataSource.query(`SELECT id FROM opportunities WHERE organization_id = $1 AND brand_id = $2 AND status = 'verifying' AND type = ANY($3::text[]) ORDER BY id`, [
      organizationId,
      brandId,
      [...types],
    ]);
    for (const { id } of rows) {
      const state = await this.repository.load(Number(id));
      if (!state || state.status !== 'verifying') continue;
      const fixedAt = (await this.fixDeployedAt(state.id)) ?? new Date(state.updatedAt);
      const recorded = state.verification.status === 'passed' || state.verification.status === 'failed' ? state.verification.status : null;
      let decision: VerificationDecision | null = null;
      if (!recorded) {
        decision = await measure(state, fixedAt);
        if (!decision) continue; // not this pass's to judge
        if (decision.status === 'waiting') {
          out.waiting.push(state.id);
          continue;
        }
        const actor = { organizationId, ...SYSTEM_ACTOR };
        await this.commands.execute(new RecordVerificationCommand(state.id, decision.status, { ...decision.details, reason: decision.reason, fixDeployedAt: fixedAt.toISOString() }, actor, correlationId, asOf));
      }
      const status = recorded ?? (decision!.status as 'passed' | 'failed');
      const reason = decision?.reason ?? (state.verification.details?.reason as string | undefined) ?? `verification ${status}`;
      await this.repository.execute(state.id, (s) => ({ kind: 'transition', toStatus: status === 'passed' ? 'resolved' : 'regressed', reason, owner: s?.owner ?? null, now: asOf ?? new Date() }), {
        organizationId,
        actor: SYSTEM_ACTOR.actor,
        correlationId,
        reason,
      });
      out[status].push(state.id);
    }
    return out;
  }

  /** When the opportunity last moved to `fix_deployed` (null when it never did). */
  private async fixDeployedAt(id: number): Promise<Date | null> {
    const history = await this.repository.history(id);
    for (let i = history.length - 1; i >= 0; i--) {
      const e = asOpportunityEvent(history[i]);
      if (e.type === 'opportunity.transitioned' && e.data.to === 'fix_deployed') return new Date(e.data.at);
    }
    return null;
  }
}
