import { Command } from '@nestjs/cqrs';
import type { OpportunityType, Severity } from '../domain';
import type { CommandResult } from '../opportunity.repository';

export interface DetectOpportunityResult extends CommandResult {
  /** False when an open opportunity with the same fingerprint was returned instead. */
  created: boolean;
}

/** Opens an opportunity (or returns the open one with the same fingerprint). */
export class DetectOpportunityCommand extends Command<DetectOpportunityResult> {
  constructor(
    readonly input: {
      organizationId: number;
      brandId: number;
      type: OpportunityType;
      severity: Severity;
      title: string;
      description?: string | null;
      evidence?: Record<string, unknown>;
      fingerprint?: string | null;
      source: string;
      detectedAt?: Date;
    },
    readonly actor: { subject: string; actor: string },
    readonly correlationId: string,
  ) {
    super();
  }
}
