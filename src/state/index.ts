// Runner-side building blocks of exactly-once runs (see docs/exactly-once.md). Only re-exports.
export * from './envelope-identity.js';
export * from './shard.js';
export * from './journal-record.js';
export * from './journal.js';
export * from './journal-progress.js';
export * from './state-lock.js';
export { bindStateTarget, checkStateTarget, type StateTarget } from './state-target.js';
export * from './hold-state.js';
