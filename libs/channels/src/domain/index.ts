export * from './ai-sources';
export * from './channel-kinds';
export * from './daily-rows';
export * from './import-rows';
export * from './retry-policy';
export * from './sync-window';
