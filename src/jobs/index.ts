// The jobs area: loading, validation, expansion. Only re-exports.
export { loadJobs, type LoadJobsOptions } from './load-jobs.js';
export { jobSchema } from './schema-check.js';
export { limits as jobLimits } from './limits.js';
export * from './model.js';
export { fromFileRoot, WrittenPlaces, type WrittenPlace } from './written-places.js';
