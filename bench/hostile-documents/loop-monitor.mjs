/**
 * Loaded into the `signrun serve` of the hostile-documents bench (node
 * --import): the sandbox's own view of its event loop, which no client's
 * clock can give on a loaded machine. On `loop-reset` it starts a phase; on
 * `loop-read` it answers the phase's longest event-loop delay (perf_hooks'
 * monitorEventLoopDelay, 10 ms resolution) and the milliseconds the event
 * loop was busy (eventLoopUtilization's `active`): CPU the main thread spent,
 * whatever the load. Threads (the document pool) are left alone.
 */
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { isMainThread } from 'node:worker_threads';

if (isMainThread && process.send) {
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  let since = performance.eventLoopUtilization();
  process.on('message', (message) => {
    if (message === 'loop-reset') {
      delay.reset();
      since = performance.eventLoopUtilization();
    } else if (message === 'loop-read') {
      const used = performance.eventLoopUtilization(since);
      process.send({ maxDelayMs: delay.max / 1e6, busyMs: used.active });
    }
  });
  // The IPC channel must not keep serve alive on its own.
  process.channel?.unref();
}
