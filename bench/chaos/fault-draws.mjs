/**
 * The faults a `serve --faults SPEC --fault-seed SEED` injects, request by
 * request: one draw a request, in the order requests arrive, so what the
 * first N API requests meet depends on the seed alone (which request meets
 * it depends on the order). Prints the request by which every kind but
 * `truncate` (downloads only) has come, and the counts at a few points; the
 * chaos tests choose their seed and size with it (test/chaos/chaos.test.ts).
 *
 *   npm run build && node bench/chaos/fault-draws.mjs [all=0.1] [3]
 */
import { parseFaultSpec } from '../../dist/sandbox/platform/faults/fault-spec.js';
import { seededRandom } from '../../dist/sandbox/platform/faults/seeded-random.js';

const spec = parseFaultSpec(process.argv[2] ?? 'all=0.1');
const seed = Number(process.argv[3] ?? '3');
const random = seededRandom(seed);
const kinds = ['429', '500', '503', 'reset-before', 'reset-after', 'slow'];
const seen = {};
let allBy;
for (let request = 1; request <= 500; request++) {
  const draw = random();
  let cumulative = 0;
  for (const rule of spec.rules) {
    cumulative += rule.probability;
    if (draw < cumulative) {
      seen[rule.kind] = (seen[rule.kind] ?? 0) + 1;
      break;
    }
  }
  if (allBy === undefined && kinds.every((k) => seen[k])) {
    allBy = request;
    console.log(`every kind but truncate by request ${request}: ${JSON.stringify(seen)}`);
  }
  if (request % 50 === 0) console.log(`${request} requests: ${JSON.stringify(seen)}`);
}
if (allBy === undefined) console.log('some kind never came in 500 requests');
