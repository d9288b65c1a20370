export * from './address-guard';
export * from './guarded-fetcher';
export * from './allowance-setting';
