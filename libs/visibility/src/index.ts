export * from './domain/entity-sums';
export * from './visibility.module';
