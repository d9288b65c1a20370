import { Command } from '@nestjs/cqrs';
import type { Principal } from '@libs/auth';
import type { Status } from '../domain';
import type { CommandResult } from '../opportunity.repository';

export class TransitionOpportunityCommand extends Command<CommandResult> {
  constructor(
    readonly id: number,
    readonly toStatus: Status,
    readonly reason: string | null,
    readonly owner: string | null,
    readonly principal: Principal,
    readonly correlationId: string,
    /** The version the caller saw: a different current version refuses the move (409). */
    readonly expectedVersion: number | null = null,
  ) {
    super();
  }
}
