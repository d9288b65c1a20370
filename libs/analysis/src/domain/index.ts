export * from './providers';
export * from './prompt-rules';
