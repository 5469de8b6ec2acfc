import { defineCodes } from '../catalogue-entry.js';

/** Codes for job files: loading, schema and semantic validation, expansion. */
export const jobCodes = defineCodes({
  SR_NO_JOB_FILES: {
    exitCode: 2,
    summary: 'No job file matched the paths or globs given.',
    hint: 'Check the paths; a folder is searched for *.yaml and *.yml files.',
  },
});
