import { createRequire } from 'node:module';
import type Forge from 'node-forge';

const require = createRequire(import.meta.url);
let forge: typeof Forge | undefined;

/**
 * node-forge, loaded when a certificate is first made or read, not when the sandbox's modules are: it costs
 * about 90 ms of CPU to load, which every process that imports the sandbox paid (each `run` with its
 * in-process sandbox, a `serve` restarting on a data folder whose CAs exist, `serve` without --tls) while
 * making no certificate. A CommonJS package, so `require` gives it synchronously to the synchronous
 * CA code (sandbox-ca.ts, tls-ca.ts).
 */
export function nodeForge(): typeof Forge {
  return (forge ??= require('node-forge') as typeof Forge);
}
