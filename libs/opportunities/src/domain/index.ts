export * from './lifecycle';
export * from './sla-policy';
export * from './fingerprint';
export * from './opportunity.events';
export * from './opportunity';
export * from './decide';
export * from './opportunity.decider';
export * from './fingerprint-claims';
