export * from './domain/rate-limit-decision';
export * from './rate-limit.script';
export * from './rate-limiter.service';
export * from './auth-failure-limiter';
export * from './rate-limit.module';
export * from './rate-limit.config';
export * from './domain/request-leases';
export * from './charge-request';
