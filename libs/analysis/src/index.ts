export * from './domain';
export * from './tracked-prompts.repository';
export * from './analysis.module';
export { ANALYSIS_CONFIG, type AnalysisConfig } from './analysis.config';
export { AnswerDispatchReactor } from './dispatch-answers/answer-dispatch.reactor';
export { RunRequests } from './shared/run-requests';
export { RunScheduler } from './schedule-runs/run-scheduler';
export { CreateTrackedPrompts1763700006000 } from './migrations/1763700006000-create-tracked-prompts';
export { CreateAnalysisRunIds1763700006100 } from './migrations/1763700006100-create-analysis-run-ids';
