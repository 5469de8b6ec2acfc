import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { renderErrorDocs } from './docs.js';

// Run as `npm run docs:errors` (after a build): rewrites docs/errors.md.
const target = fileURLToPath(new URL('../../docs/errors.md', import.meta.url));
writeFileSync(target, renderErrorDocs());
process.stdout.write(`wrote ${target}\n`);
