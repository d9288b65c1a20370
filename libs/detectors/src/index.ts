export * from './domain';
export * from './detectors.config';
export * from './detectors.module';
export * from './detector-thresholds.repository';
export * from './read-model/answer-facts.reads';
export * from './read-model/channel-outcome.reads';
export { DetectorPass, DETECTOR_LIST, SYSTEM_ACTOR, type PassResult } from './shared/detector-pass';
export { DetectorsReactor, DETECTOR_READ_MODELS } from './run-after-analysis/detectors.reactor';
export { CreateDetectorThresholds1763700012000 } from './migrations/1763700012000-create-detector-thresholds';
