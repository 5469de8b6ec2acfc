/**
 * How long the sandbox's asynchronous Admin work (account creation and
 * cloning, settings and user imports, exports) takes in these tests, ms.
 * Under signrun's first poll (250 ms, src/runner/organization/follow-work.ts):
 * each work is still Pending at signrun's first look and done at its second,
 * as against DocuSign, without the sandbox's default second that made the
 * run wait 250 + 500 + 1,000 ms of real time for every work.
 */
export const workDelayMs = 100;
