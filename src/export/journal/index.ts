// The export's journal: its public surface (docs/architecture.md).
export * from './journal.js';
export * from './journal-check.js';
export * from './journal-json.js';
export { markCommitting, unmark } from './journal-mark.js';
