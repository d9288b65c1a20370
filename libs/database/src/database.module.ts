import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { APP_CONFIG, type AppConfig } from '@libs/config';
import { dataSourceOptions } from './data-source';

/** The TypeORM DataSource of the read models (migrations only, never synchronize). */
@Global()
@Module({
  imports: [
    TypeOrmModule.forRootAsync({
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => ({ ...dataSourceOptions(config.databaseUrl, config.databasePoolSize), migrationsRun: false }),
    }),
  ],
  exports: [TypeOrmModule],
})
export class DatabaseModule {}
