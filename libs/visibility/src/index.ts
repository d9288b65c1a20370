export * from './domain/entity-sums';
export * from './visibility.module';
export * from './brand-index-weights.repository';
export { CreateBrandIndexWeights1763700007100 } from './migrations/1763700007100-create-brand-index-weights';
export { RollupReads, rollupSumsSql } from './read-model/rollup-reads';
export * from './read-model/answer-rollups.table';
export { VisibilityReport, reportCsv, reportTable, type VisibilityReportResult } from './visibility-report/visibility-report';
