/**
 * How long the sandbox's asynchronous Admin work (account creation and
 * cloning, settings and user imports, exports) takes in these tests, ms:
 * the same as run's in-process sandbox, under signrun's first poll
 * (src/runner/organization/follow-work.ts), so each work is still Pending at
 * signrun's first look and done at its second, as against DocuSign.
 */
export { privateSandboxWorkDelayMs as workDelayMs } from '../../src/runner/organization/follow-work.js';
