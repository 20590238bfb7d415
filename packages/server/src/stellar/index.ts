export * from './network.js';
export * from './assets.js';
export type * from './horizon-types.js';
export * from './sandbox/index.js';
