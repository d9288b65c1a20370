import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { OpportunityRepository, type CommandResult } from '../opportunity.repository';
import { ReadYourWrites } from '../read-your-writes';
import { FinalizeOutcomeCommand } from './finalize-outcome.command';

@CommandHandler(FinalizeOutcomeCommand)
export class FinalizeOutcomeHandler implements ICommandHandler<FinalizeOutcomeCommand> {
  constructor(
    private readonly repository: OpportunityRepository,
    private readonly ryw: ReadYourWrites,
  ) {}

  async execute(c: FinalizeOutcomeCommand): Promise<CommandResult> {
    const result = await this.repository.execute(c.id, () => ({ kind: 'finalize_outcome', ...c.figures, now: c.at ?? new Date() }), {
      organizationId: c.actor.organizationId,
      actor: c.actor.actor,
      correlationId: c.correlationId,
    });
    await this.ryw.wrote(c.actor.subject, result.position);
    return result;
  }
}
