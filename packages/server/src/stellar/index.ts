export * from './network.js';
export * from './assets.js';
export type * from './horizon-types.js';
