/**
 * Whether a process id names a process that is still running on this
 * machine: the one question behind a stale lock (src/state/state-lock.ts)
 * and a killed run's temp files (output-folder.ts). Here, in the lowest
 * layer that asks it, so both answer alike.
 */
export function processIsAlive(pid: number): boolean {
  // 0 and negative ids are process groups to process.kill, never one process.
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
