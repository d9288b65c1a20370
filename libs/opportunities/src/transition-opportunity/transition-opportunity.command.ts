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
  ) {
    super();
  }
}
