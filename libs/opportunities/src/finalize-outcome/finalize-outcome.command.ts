import { Command } from '@nestjs/cqrs';
import type { OutcomeFigures } from '../domain';
import type { CommandResult } from '../opportunity.repository';

/** Finalises the measured business impact of a resolved opportunity. */
export class FinalizeOutcomeCommand extends Command<CommandResult> {
  constructor(
    readonly id: number,
    readonly figures: OutcomeFigures,
    readonly actor: { organizationId: number; subject: string; actor: string },
    readonly correlationId: string,
    readonly at?: Date,
  ) {
    super();
  }
}
