export * from './providers';
export * from './prompt-rules';
export * from './market';
export * from './analysis-events';
export * from './analysis-rules';
export * from './analysis-run.decider';
export * from './answer.decider';
export * from './pricing';
