// signrun's own configuration. Only re-exports.
export { loadConfig, type LoadConfigOptions, type LoadConfigResult } from './load-config.js';
export { configEnvironment } from './config-env.js';
export type { SignrunConfig, Credentials } from './types.js';
