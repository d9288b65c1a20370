import { Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { TenancyModule } from '@libs/tenancy';
import { DetectOpportunityHandler } from './detect-opportunity/detect-opportunity.handler';
import { DetectOpportunityController } from './detect-opportunity/detect-opportunity.http.controller';
import { FinalizeOutcomeHandler } from './finalize-outcome/finalize-outcome.handler';
import { GetOpportunityController } from './get-opportunity/get-opportunity.http.controller';
import { ListOpportunitiesController } from './list-opportunities/list-opportunities.http.controller';
import { GetOpportunity } from './get-opportunity/get-opportunity.query';
import { OpportunityEvents } from './get-opportunity/opportunity-events.query';
import { OpportunityChanges } from './opportunity-changes/opportunity-changes.query';
import { ListOpportunities } from './list-opportunities/list-opportunities.query';
import { OpportunityKpis } from './opportunity-kpis/opportunity-kpis.query';
import { OutcomesSummary } from './outcomes-summary/outcomes-summary.query';
import { OpportunityKpisController } from './opportunity-kpis/opportunity-kpis.http.controller';
import { OpportunityRepository } from './opportunity.repository';
import { OutcomesSummaryController } from './outcomes-summary/outcomes-summary.http.controller';
import { ReadYourWrites } from './read-your-writes';
import { RecordVerificationHandler } from './record-verification/record-verification.handler';
import { TransitionOpportunityHandler } from './transition-opportunity/transition-opportunity.handler';
import { TransitionOpportunityController } from './transition-opportunity/transition-opportunity.http.controller';

const handlers = [DetectOpportunityHandler, TransitionOpportunityHandler, RecordVerificationHandler, FinalizeOutcomeHandler];
const services = [OpportunityRepository, ReadYourWrites];
const queries = [ListOpportunities, GetOpportunity, OpportunityEvents, OpportunityChanges, OpportunityKpis, OutcomesSummary];

/** Commands without HTTP (the CLI's seed, detectors in the worker). */
@Module({
  imports: [CqrsModule.forRoot(), TenancyModule],
  providers: [...handlers, ...services],
  exports: [...services, CqrsModule],
})
export class OpportunityCommandsModule {}

/**
 * The opportunity queue: the commands (one module instance, so a process composing the API and the
 * worker's detectors registers each handler once), read-model queries and their HTTP controllers.
 */
@Module({
  imports: [OpportunityCommandsModule, TenancyModule],
  controllers: [
    OpportunityKpisController,
    ListOpportunitiesController,
    DetectOpportunityController,
    GetOpportunityController,
    TransitionOpportunityController,
    OutcomesSummaryController,
  ],
  providers: [...queries],
  exports: [OpportunityCommandsModule, ...queries],
})
export class OpportunitiesModule {}
