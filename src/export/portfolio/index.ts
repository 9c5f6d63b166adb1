// The export's portfolio: its public surface (docs/architecture.md).
export * from './files-key.js';
export * from './portfolio.js';
export * from './portfolio-progress.js';
export * from './portfolio-summary.js';
export * from './texts-portfolio.js';
export type { JobName, JobOutcome, PortfolioJob, ProfileShared } from './portfolio-job.js';
