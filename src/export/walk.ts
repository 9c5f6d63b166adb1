// The walk moved to the API layer (src/api/walk.ts), which browse uses too; export's
// modules keep importing it from here.
export { collectProperty, mapPool, propertiesInScope, type WalkOptions } from '../api/walk.js';
