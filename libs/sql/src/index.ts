export * from './prepared-query';
