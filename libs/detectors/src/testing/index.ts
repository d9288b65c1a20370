/** Test data of the detectors (`@libs/detectors/testing`): for specs, tests and benchmarks, never for production code. */
export * from './answer-facts.fixture';
export * from './page-gaps.fixture';
