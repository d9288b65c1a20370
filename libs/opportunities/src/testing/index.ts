/** Test data of opportunities (`@libs/opportunities/testing`): for specs, tests and benchmarks, never for production code. */
export * from './detected-event.fixture';
