export * from './data-source';
export * from './database.module';
export * from './read-replica';
export * from './data-source-closer';
