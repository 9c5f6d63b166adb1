// The export's options: its public surface (docs/architecture.md).
export * from './options.js';
export * from './review-options.js';
export * from './settings.js';
export * from './texts-options.js';
export * from './texts-settings.js';
