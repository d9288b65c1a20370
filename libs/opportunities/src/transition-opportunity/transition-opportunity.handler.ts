import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { OpportunityRuleError } from '../domain';
import { BrandAccess } from '@libs/tenancy';
import { OpportunityRepository, type CommandResult } from '../opportunity.repository';
import { ReadYourWrites } from '../read-your-writes';
import { TransitionOpportunityCommand } from './transition-opportunity.command';

@CommandHandler(TransitionOpportunityCommand)
export class TransitionOpportunityHandler implements ICommandHandler<TransitionOpportunityCommand> {
  constructor(
    private readonly repository: OpportunityRepository,
    private readonly brands: BrandAccess,
    private readonly ryw: ReadYourWrites,
  ) {}

  async execute(c: TransitionOpportunityCommand): Promise<CommandResult> {
    // Another tenant's opportunity does not exist for this caller (organisation and brand never change).
    const current = await this.repository.loadForDecision(c.id);
    if (!current.state || !(await this.brands.canSeeResource(c.principal, current.state))) throw new OpportunityRuleError('not_found', 'not found');
    const result = await this.repository.execute(
      c.id,
      // Checked on the state the move is decided on (again on each retry of a concurrent append).
      (state) => {
        if (c.expectedVersion !== null && state && state.version !== c.expectedVersion)
          throw new OpportunityRuleError('conflict', `Opportunity ${c.id} changed since it was read: it is at version ${state.version} (${state.status}), not ${c.expectedVersion}`, {
            expectedVersion: c.expectedVersion,
            version: state.version,
            status: state.status,
          });
        return { kind: 'transition', toStatus: c.toStatus, reason: c.reason, owner: c.owner, now: new Date() };
      },
      { organizationId: c.principal.organizationId, actor: c.principal.actor, correlationId: c.correlationId, reason: c.reason },
      current,
    );
    await this.ryw.wrote(c.principal.subject, result.position);
    return result;
  }
}
