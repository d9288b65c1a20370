export * from './domain';
export * from './read-model/opportunity-row';
export * from './opportunities.module';
export * from './opportunity.repository';
export { DetectOpportunityCommand } from './detect-opportunity/detect-opportunity.command';
export { fingerprintStream } from './detect-opportunity/detect-opportunity.handler';
export { TransitionOpportunityCommand } from './transition-opportunity/transition-opportunity.command';
export { RecordVerificationCommand } from './record-verification/record-verification.command';
export { FinalizeOutcomeCommand } from './finalize-outcome/finalize-outcome.command';
export { listOpportunitiesSql, listPageJson, type ListRow } from './list-opportunities/list-opportunities.query';
export { kpisFromRows, opportunityKpisSql, type KpiRow } from './opportunity-kpis/opportunity-kpis.query';
export { OpportunityDto, OutcomeDto, VerificationDto } from './opportunity.dto';
// The read use cases (other apps call them with the caller's principal).
export { GetOpportunity } from './get-opportunity/get-opportunity.query';
export { ListOpportunities } from './list-opportunities/list-opportunities.query';
export { OpportunityKpis } from './opportunity-kpis/opportunity-kpis.query';
export { OutcomesSummary } from './outcomes-summary/outcomes-summary.query';
