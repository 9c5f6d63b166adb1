// The pure core of the monthly consumption information (§ 6a HeizkostenV, docs/uvi.md).
export * from './benchmark.js';
export * from './compare.js';
export * from './months.js';
export * from './own-average.js';
export * from './plant.js';
export * from './point-months.js';
export * from './property.js';
export * from './types.js';
