export * from './address-guard';
export * from './guarded-fetcher';
export * from './fetch-failures';
export * from './dns-lookup';
export * from './allowance-setting';
