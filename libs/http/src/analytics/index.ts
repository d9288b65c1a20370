export * from './brand-period.query';
export * from './page.dto';
export * from './rate.dto';
export * from './figures.dto';
export * from './days.param';
