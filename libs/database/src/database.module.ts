import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { APP_CONFIG, type AppConfig } from '@libs/config';
import { dataSourceOptions } from './data-source';
import { ReadReplica } from './read-replica';

/** The TypeORM DataSource of the read models (migrations only, never synchronize). */
@Global()
@Module({
  imports: [
    TypeOrmModule.forRootAsync({
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => ({ ...dataSourceOptions(config.databaseUrl, config.databasePoolSize), migrationsRun: false }),
    }),
  ],
  providers: [ReadReplica],
  exports: [TypeOrmModule, ReadReplica],
})
export class DatabaseModule {}
