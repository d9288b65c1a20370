export * from './address-guard';
export * from './guarded-fetcher';
