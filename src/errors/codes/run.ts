import { defineCodes } from '../catalogue-entry.js';

/** Codes for executing a plan: runner, journal, outputs, reports. */
export const runCodes = defineCodes({
  SR_ENVELOPE_FAILED: {
    exitCode: 1,
    summary: 'An envelope could not be completed.',
    hint: 'The report says which step failed and why; fix it and run again: finished steps are not repeated.',
  },
});
