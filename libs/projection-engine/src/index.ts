export * from './projector';
export * from './checkpoint-store';
export * from './projector-runner';
export * from './projection-rebuilder';
export * from './projection-status';
export * from './projection-engine.module';
export * from './projection-metrics';
export { CreateProjectionCheckpoints1763700000100 } from './migrations/1763700000100-create-projection-checkpoints';
export { projectionsReached } from './checkpoint-store';
