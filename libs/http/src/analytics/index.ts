export * from './brand-period.query';
export * from './page.dto';
export * from './rate.dto';
