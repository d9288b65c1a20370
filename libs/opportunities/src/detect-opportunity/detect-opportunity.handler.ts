import { createHash } from 'node:crypto';
import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { EVENT_STORE, ExpectedRevision, START, WrongExpectedRevisionError, type EventStore } from '../../../event-store/src';
import { deduplicate, defaultFingerprint, type KnownOpportunity } from '../domain';
import { OpportunityRepository } from '../opportunity.repository';
import { ReadYourWrites } from '../read-your-writes';
import { DetectOpportunityCommand, type DetectOpportunityResult } from './detect-opportunity.command';

/** The claims on one fingerprint live in their own stream, so two reports can't both open one. */
export const fingerprintStream = (organizationId: number, fingerprint: string) =>
  `fingerprint-${organizationId}-${createHash('sha256').update(fingerprint).digest('hex').slice(0, 40)}`;

@CommandHandler(DetectOpportunityCommand)
export class DetectOpportunityHandler implements ICommandHandler<DetectOpportunityCommand> {
  constructor(
    private readonly repository: OpportunityRepository,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly ryw: ReadYourWrites,
  ) {}

  async execute(c: DetectOpportunityCommand): Promise<DetectOpportunityResult> {
    const input = c.input;
    const fingerprint = input.fingerprint?.trim() || defaultFingerprint(input.brandId, input.type, input.title);
    const claims = fingerprintStream(input.organizationId, fingerprint);
    const meta = { organizationId: input.organizationId, actor: c.actor.actor, correlationId: c.correlationId };
    for (let attempt = 0; attempt < 25; attempt++) {
      const claimed = await this.store.readStream(claims);
      const known: KnownOpportunity[] = [];
      for (const claim of claimed) {
        const state = await this.repository.load(Number(claim.data.opportunityId));
        if (state) known.push({ id: state.id, status: state.status, detectedAt: new Date(state.detectedAt) });
      }
      const decision = deduplicate(known);
      if (decision.kind === 'existing') {
        const state = (await this.repository.load(decision.id))!;
        // Nothing was written: no position to wait for.
        return { state, position: START, events: [], created: false };
      }
      const id = await this.repository.nextId();
      try {
        // Claim first: a crash between the two appends leaves a claim on a missing opportunity, which is skipped.
        await this.store.appendToStream(
          claims,
          [{ type: 'opportunity.fingerprint_claimed', data: { opportunityId: id, fingerprint }, metadata: meta }],
          claimed.length ? ExpectedRevision.exact(claimed[claimed.length - 1].streamPosition) : ExpectedRevision.noStream,
        );
      } catch (error) {
        if (error instanceof WrongExpectedRevisionError) continue;
        throw error;
      }
      const result = await this.repository.execute(
        id,
        () => ({
          kind: 'detect',
          id,
          organizationId: input.organizationId,
          brandId: input.brandId,
          type: input.type,
          severity: input.severity,
          title: input.title,
          description: input.description ?? null,
          evidence: input.evidence ?? {},
          fingerprint,
          source: input.source,
          recurrenceOf: decision.recurrenceOf,
          now: input.detectedAt ?? new Date(),
        }),
        meta,
      );
      await this.ryw.wrote(c.actor.subject, result.position);
      return { ...result, created: true };
    }
    throw new Error('could not claim the fingerprint after 25 attempts');
  }
}
