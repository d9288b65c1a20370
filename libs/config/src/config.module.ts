import { Global, Inject, Module, type DynamicModule } from '@nestjs/common';
import type { AppConfig } from './app-config';
import type { ConfigSection } from './config-section';

export const APP_CONFIG = Symbol('APP_CONFIG');

/** Injects a section's value: `constructor(@InjectConfig(WEBHOOKS_CONFIG) config: WebhooksConfig)`. */
export const InjectConfig = (section: ConfigSection<unknown>): ParameterDecorator => Inject(section.token);

/** Makes the validated configuration injectable everywhere: the core as APP_CONFIG, each loaded section under its token. */
@Global()
@Module({})
export class ConfigModule {
  static forRoot(config: AppConfig): DynamicModule {
    const sections = [...config.sections].map(([token, value]) => ({ provide: token, useValue: value }));
    return {
      module: ConfigModule,
      providers: [{ provide: APP_CONFIG, useValue: config }, ...sections],
      exports: [APP_CONFIG, ...sections.map((s) => s.provide)],
    };
  }
}
