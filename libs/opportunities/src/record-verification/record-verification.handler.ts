import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { OpportunityRepository, type CommandResult } from '../opportunity.repository';
import { ReadYourWrites } from '../read-your-writes';
import { RecordVerificationCommand } from './record-verification.command';

@CommandHandler(RecordVerificationCommand)
export class RecordVerificationHandler implements ICommandHandler<RecordVerificationCommand> {
  constructor(
    private readonly repository: OpportunityRepository,
    private readonly ryw: ReadYourWrites,
  ) {}

  async execute(c: RecordVerificationCommand): Promise<CommandResult> {
    const result = await this.repository.execute(c.id, () => ({ kind: 'record_verification', status: c.status, details: c.details, now: c.at ?? new Date() }), {
      organizationId: c.actor.organizationId,
      actor: c.actor.actor,
      correlationId: c.correlationId,
    });
    await this.ryw.wrote(c.actor.subject, result.position);
    return result;
  }
}
