import { Command } from '@nestjs/cqrs';
import type { DetectionReport } from '../domain';
import type { CommandResult } from '../opportunity.repository';

export interface DetectOpportunityResult extends CommandResult {
  /** False when an open opportunity with the same fingerprint was returned instead. */
  created: boolean;
}

/** Opens an opportunity (or returns the open one with the same fingerprint). */
export class DetectOpportunityCommand extends Command<DetectOpportunityResult> {
  constructor(
    readonly input: DetectionReport & { fingerprint?: string | null; detectedAt?: Date },
    readonly actor: { subject: string; actor: string },
    readonly correlationId: string,
  ) {
    super();
  }
}
