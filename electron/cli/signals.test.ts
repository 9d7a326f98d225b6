// A measuring command's stop (signals.ts): a stop signal aborts the measurement, a second one is
// passed on (encryption tears its mapping down then) rather than killing the process, and once
// the command ends its listeners are gone, so a later Ctrl-C is Node's again.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { STOP_SIGNALS, stopOnSignals } from './signals.ts';

test('the first stop signal aborts, the next are passed on, release removes every listener', () => {
  const before = STOP_SIGNALS.map((s) => process.listenerCount(s));
  const repeats: number[] = [];
  const stop = stopOnSignals((n) => repeats.push(n));
  assert.equal(stop.signal.aborted, false);
  // process.emit calls the listeners without a real signal reaching the test's process.
  process.emit('SIGTERM');
  assert.equal(stop.signal.aborted, true);
  assert.deepEqual(repeats, []);
  process.emit('SIGINT');
  process.emit('SIGHUP');
  assert.deepEqual(repeats, [2, 3]);
  stop.release();
  assert.deepEqual(
    STOP_SIGNALS.map((s) => process.listenerCount(s)),
    before,
  );
});
