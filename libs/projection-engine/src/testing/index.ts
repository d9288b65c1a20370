/** The projection engine's test kit (`@libs/projection-engine/testing`): for specs, tests and benchmarks, never for production code. */
export { projectorHarness, type GivenEvent, type ProjectorHarness } from './projector-harness';
