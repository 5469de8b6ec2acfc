// The library API: what the CLI itself calls. Only re-exports.
export * from './errors/index.js';
export type * from './jobs/model.js';
export type * from './config/types.js';
export type { SandboxOptions, RunningSandbox } from './sandbox/contract.js';
