// After a worker died without cleaning up (SIGKILL, out of memory), remove its test file
// at once instead of waiting for the next run's sweep.
import { workerCommand } from './worker-argv.ts';
import { runWorker } from './worker-client.ts';

export async function runCleanup(workerPath: string, target: string): Promise<number> {
  let removed = 0;
  await runWorker(workerCommand('cleanup', { target }), {
    workerPath,
    onMessage: (m) => {
      if (m.type === 'cleaned') removed = m.removed;
    },
  }).catch(() => undefined); // best effort: the next run sweeps again
  return removed;
}
