export * from './webhook-events';
export * from './retry-policy';
export * from './header-rules';
export * from './signing';
export * from './ids';
