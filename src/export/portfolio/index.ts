// The export's portfolio: its public surface (docs/architecture.md).
export * from './portfolio.js';
export * from './portfolio-progress.js';
export * from './portfolio-summary.js';
export * from './texts-portfolio.js';
