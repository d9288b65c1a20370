import { Command } from '@nestjs/cqrs';
import type { CommandResult } from '../opportunity.repository';

/** Records the result of checking a deployed fix (used by verification runs and the demo seed). */
export class RecordVerificationCommand extends Command<CommandResult> {
  constructor(
    readonly id: number,
    readonly status: 'passed' | 'failed',
    readonly details: Record<string, unknown>,
    readonly actor: { organizationId: number; subject: string; actor: string },
    readonly correlationId: string,
    readonly at?: Date,
  ) {
    super();
  }
}
