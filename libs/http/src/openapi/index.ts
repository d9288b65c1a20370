export * from './build-document';
export * from './components';
export * from './operation-access';
export * from './route-registry';
export * from './serve-documentation';
export * from './openapi-31';
