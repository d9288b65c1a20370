export * from './domain';
export * from './tracked-prompts.repository';
export * from './analysis.module';
export { CreateTrackedPrompts1763700006000 } from './migrations/1763700006000-create-tracked-prompts';
