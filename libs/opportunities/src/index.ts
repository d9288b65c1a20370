export * from './domain';
export * from './read-model/opportunity-row';
export * from './opportunities.module';
export * from './opportunity.repository';
export { DetectOpportunityCommand } from './detect-opportunity/detect-opportunity.command';
export { TransitionOpportunityCommand } from './transition-opportunity/transition-opportunity.command';
export { RecordVerificationCommand } from './record-verification/record-verification.command';
export { FinalizeOutcomeCommand } from './finalize-outcome/finalize-outcome.command';
export { kpisFromRows, listOpportunitiesSql, listPageJson, opportunityKpisSql, type KpiRow, type ListRow } from './opportunity-queries';
