export * from './bot-access';
export * from './page-content';
export * from './page-score';
export * from './page-signals';
export * from './recommendations';
export * from './page-failures';
