import { createHash } from 'node:crypto';
import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { BrandAccess } from '@libs/tenancy';
import { EVENT_STORE, ExpectedRevision, START, WrongExpectedRevisionError, type EventStore, type RecordedEvent } from '@libs/event-store';
import { asFingerprintClaim, asOpportunityEvent, deduplicate, defaultFingerprint, fold, OpportunityRuleError, type ClaimedDetection, type FingerprintClaimed, type KnownOpportunity, type OpportunityState } from '../domain';
import { OpportunityRepository, type CommandMetadata, type CommandResult } from '../opportunity.repository';
import { ReadYourWrites } from '../read-your-writes';
import { DetectOpportunityCommand, type DetectOpportunityResult } from './detect-opportunity.command';

/**
 * The claims on one fingerprint live in their own stream, so two reports can't both open one.
 * Fingerprints are compared within an organisation, and within a client for a client's brands:
 * a client-bound key must never be answered with another client's opportunity.
 */
export const fingerprintStream = (organizationId: number, clientId: number | null, fingerprint: string) =>
  `fingerprint-${organizationId}-${clientId === null ? '' : `c${clientId}-`}${createHash('sha256').update(fingerprint).digest('hex').slice(0, 40)}`;

@CommandHandler(DetectOpportunityCommand)
export class DetectOpportunityHandler implements ICommandHandler<DetectOpportunityCommand> {
  constructor(
    private readonly repository: OpportunityRepository,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly ryw: ReadYourWrites,
    private readonly brands: BrandAccess,
  ) {}

  /**
   * Claim, then open. A claim is appended with the revision of the claims read, so of two
   * concurrent reports one claims and the other reads again. The claim carries the detection: a
   * report that finds a claim whose opportunity is not written yet (its claimant is between the
   * two appends, or crashed there) writes it from the claim itself, so it is never mistaken for
   * no opportunity and a detection is never lost. Whoever writes the stream first wins; the
   * other finds it there (expected revision), so it is written once.
   */
  async execute(c: DetectOpportunityCommand): Promise<DetectOpportunityResult> {
    const input = c.input;
    const fingerprint = input.fingerprint?.trim() || defaultFingerprint(input.brandId, input.type, input.title);
    const claims = fingerprintStream(input.organizationId, (await this.brands.clientOf(input.brandId)) ?? null, fingerprint);
    const meta: CommandMetadata = { organizationId: input.organizationId, actor: c.actor.actor, correlationId: c.correlationId };
    for (let attempt = 0; attempt < 25; attempt++) {
      const claimed = await this.store.readStream(claims);
      const states = new Map<number, OpportunityState>();
      for (const claim of claimed) {
        const state = await this.opportunityOf(claim);
        if (state) states.set(state.id, state);
      }
      const decision = deduplicate([...states.values()].map((s): KnownOpportunity => ({ id: s.id, status: s.status, detectedAt: new Date(s.detectedAt) })));
      if (decision.kind === 'existing') {
        // Nothing was written by this report: no position to wait for.
        return { state: states.get(decision.id)!, position: START, events: [], created: false };
      }
      const detection: ClaimedDetection = {
        id: await this.repository.nextId(),
        organizationId: input.organizationId,
        brandId: input.brandId,
        type: input.type,
        severity: input.severity,
        title: input.title,
        description: input.description ?? null,
        evidence: input.evidence ?? {},
        source: input.source,
        fingerprint,
        recurrenceOf: decision.recurrenceOf,
        detectedAt: (input.detectedAt ?? new Date()).toISOString(),
      };
      const claim: FingerprintClaimed = { type: 'opportunity.fingerprint_claimed', data: { opportunityId: detection.id, fingerprint, detection } };
      // The one append of the service outside DecisionRunner, on purpose: the claim is not decided
      // on its own stream's fold. Deciding it reads every opportunity the claims point to (other
      // streams), opens those whose claimant died before writing them (an append of its own, in
      // the middle of the decision) and allocates a new id per attempt; a decider is a pure
      // function of one stream's events. What the runner gives is kept by hand: the append
      // expects the revision of the claims read, and a conflict decides again from a fresh read.
      try {
        // eslint-disable-next-line no-restricted-properties -- the fingerprint claim: see above
        await this.store.appendToStream(
          claims,
          [{ ...claim, data: { ...claim.data }, metadata: { ...meta } }],
          claimed.length ? ExpectedRevision.exact(claimed[claimed.length - 1].streamPosition) : ExpectedRevision.noStream,
        );
      } catch (error) {
        if (error instanceof WrongExpectedRevisionError) continue;
        throw error;
      }
      const result = await this.open(detection, meta);
      await this.ryw.wrote(c.actor.subject, result.position);
      return { ...result, created: true };
    }
    throw new OpportunityRuleError('conflict', 'the fingerprint kept being claimed; try again');
  }

  /** The opportunity a claim points to, opened from the claim when it is not written yet (null for an old claim without its detection). */
  private async opportunityOf(claim: RecordedEvent): Promise<OpportunityState | null> {
    const { data } = asFingerprintClaim(claim);
    const state = await this.repository.load(data.opportunityId);
    if (state) return state;
    const detection = data.detection;
    if (!detection) return null;
    const m = claim.metadata;
    return (await this.open(detection, { organizationId: detection.organizationId, actor: String(m.actor ?? 'unknown'), correlationId: String(m.correlationId ?? claim.eventId) })).state;
  }

  /** Writes the opportunity's first event, or reads it when another report wrote it first. */
  private async open(d: ClaimedDetection, meta: CommandMetadata): Promise<CommandResult> {
    try {
      return await this.repository.execute(d.id, () => ({ kind: 'detect', ...d, now: new Date(d.detectedAt) }), meta);
    } catch (error) {
      if (!(error instanceof OpportunityRuleError && error.rule === 'already_exists')) throw error;
      const history = await this.repository.history(d.id);
      return { state: fold(history.map(asOpportunityEvent))!, position: history[0].position, events: [] };
    }
  }
}
