export * from './providers';
export * from './prompt-rules';
export * from './analysis-events';
