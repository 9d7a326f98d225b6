// A child's stderr in a failure message: its last lines, bounded, escaped, without the worker's
// echoes of its own protocol lines.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendTail, STDERR_KEEP_CHARS, stderrTail, withStderr } from './stderr-tail.ts';

test('keeps a bounded tail however much a child writes, and the message names only its last lines', () => {
  let kept = '';
  for (let i = 0; i < 100_000; i++) kept = appendTail(kept, `tar: line ${i}\n`);
  assert.ok(kept.length <= STDERR_KEEP_CHARS);
  const message = withStderr('tar could not extract x', kept);
  assert.match(message, /^tar could not extract x\nthe worker said on stderr:\n {2}tar: line 99992\n/);
  assert.match(message, /tar: line 99999$/);
  assert.ok(message.length < 4000);
  assert.ok(stderrTail(`${'x'.repeat(100_000)}\n`)[0]!.length <= 301, 'a huge line is cut');
});

test("escapes control characters and drops the worker's echo of its own error line", () => {
  const stderr =
    'tar: \u001b]52;c;cm0gLXJm\u0007evil: Cannot open: Permission denied\n' +
    'diskdelta-worker: error: tar could not extract x\n' +
    'diskdelta-worker: warning: something\n';
  const tail = stderrTail(stderr);
  assert.deepEqual(tail, ['tar: \\u001b]52;c;cm0gLXJm\\u0007evil: Cannot open: Permission denied']);
  assert.equal(withStderr('m', 'diskdelta-worker: error: m\n'), 'm', 'nothing new said: the message alone');
});
