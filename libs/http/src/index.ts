export * from './api-error';
export * from './error.filter';
export * from './validation';
export * from './pagination';
export * from './params';
export * from './openapi';
export * from './json-text';
export * from './framework-errors';
