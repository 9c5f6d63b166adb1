// The export's folder: its public surface (docs/architecture.md).
export * from './locks.js';
export * from './out-folder.js';
export * from './atomic.js';
export * from './planted.js';
export * from './texts-folder.js';
export * from './compare-folder.js';
export * from './listed-files.js';
export * from './folder-lock.js';
export * from './commit-lock.js';
