/**
 * The hostile-documents bench's health prober (run.mjs forks it): asks
 * GET /sandbox/health every 20 ms from its own process, so that the bench's
 * own work (building and sending a 7 MB body) never counts as the sandbox's
 * latency. Messages: `{ start: origin }` begins a phase, `{ stop: true }` ends it
 * and answers `{ asked, slowest, p50, failed }` (milliseconds).
 */
let phase;

async function probe(origin, state) {
  while (!state.stopped) {
    const t = performance.now();
    try {
      const r = await fetch(`${origin}/sandbox/health`);
      await r.arrayBuffer();
      if (r.status !== 200) state.failed++;
    } catch {
      state.failed++;
    }
    state.times.push(performance.now() - t);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

process.on('message', async (message) => {
  if (message.start) {
    phase = { stopped: false, times: [], failed: 0 };
    phase.done = probe(message.start, phase);
  } else if (message.stop) {
    phase.stopped = true;
    await phase.done;
    const sorted = [...phase.times].sort((a, b) => a - b);
    process.send({
      asked: sorted.length,
      slowest: sorted.at(-1) ?? 0,
      p50: sorted[Math.floor(sorted.length / 2)] ?? 0,
      failed: phase.failed,
    });
  } else if (message.exit) process.exit(0);
});
