// The signals that stop a command cleanly: every catchable one whose default would end the
// process (bin/signals.js says which and why). bin/diskdelta.js forwards the same list when it
// re-runs itself under Node 24, and ends the real CLI when it dies of any other.
import { STOP_SIGNALS } from '../../bin/signals.js';

export { STOP_SIGNALS };

/**
 * A measuring command's stop: each stop signal aborts `signal` (the measurement then unwinds and
 * cleans up: the worker, its test file, a mapping or a scratch filesystem) until `release()`,
 * which the command calls in its `finally`. `on`, not `once`: a second signal (Ctrl-C reaches
 * both bin/diskdelta.js and this process, which then forwards it) must not kill the process
 * before the cleanup; `onRepeat` is told of every signal after the first.
 */
export function stopOnSignals(onRepeat?: (count: number) => void): { signal: AbortSignal; release: () => void } {
  const controller = new AbortController();
  let count = 0;
  const onSignal = () => {
    count++;
    controller.abort();
    if (count > 1) onRepeat?.(count);
  };
  for (const name of STOP_SIGNALS) process.on(name, onSignal);
  return {
    signal: controller.signal,
    release: () => {
      for (const name of STOP_SIGNALS) process.off(name, onSignal);
    },
  };
}
