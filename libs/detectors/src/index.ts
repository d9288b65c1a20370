export * from './domain';
export * from './detector-thresholds.repository';
export * from './read-model/answer-facts.reads';
export { CreateDetectorThresholds1763700012000 } from './migrations/1763700012000-create-detector-thresholds';
