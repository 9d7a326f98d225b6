// Reads that never wait on what a path turns out to be (#38 items 4 and 6): a FIFO with no
// writer, a device, a folder are refused at once by what the opened descriptor is, and a
// regular file is read whole (procfs' size-0 files included) up to a limit.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openRegularFile, readRegularFile, readRegularFileSync, UnreadableFileError } from './read-bounded.ts';

function scratch(t: { after(fn: () => void): void }): string {
  const dir = mkdtempSync(join(tmpdir(), 'dd-read-bounded-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

const refused = (kind: RegExp) => (error: unknown) =>
  error instanceof UnreadableFileError && error.code === 'ENOTREG' && kind.test(error.message);

test('a FIFO with no writer is refused, not waited on (async and sync): the open returns and says what it is', async (t) => {
  const fifo = join(scratch(t), 'temp1_input');
  execFileSync('mkfifo', [fifo]);
  // Before: open(O_RDONLY) of a FIFO waits for a writer; this test then never ends (its own timeout fails it).
  await assert.rejects(readRegularFile(fifo), refused(/temp1_input is a FIFO \(named pipe\), not a regular file: it was not read/));
  await assert.rejects(openRegularFile(fifo), refused(/FIFO/));
  assert.throws(() => readRegularFileSync(fifo), refused(/FIFO/));
});

test('a character device and a folder are refused; a missing file is the open error', async (t) => {
  await assert.rejects(readRegularFile('/dev/zero'), refused(/\/dev\/zero is a character device/));
  assert.throws(() => readRegularFileSync('/dev/zero'), refused(/character device/));
  const dir = scratch(t);
  await assert.rejects(readRegularFile(dir), refused(/is a folder/));
  await assert.rejects(readRegularFile(join(dir, 'none')), { code: 'ENOENT' });
});

test('a regular file is read whole; procfs files (size 0) too; past the limit is refused, not loaded', async (t) => {
  const file = join(scratch(t), 'attr');
  writeFileSync(file, '38850\n');
  assert.equal((await readRegularFile(file)).toString(), '38850\n');
  assert.match(readRegularFileSync('/proc/self/stat'), new RegExp(`^${process.pid} \\(`));
  assert.match((await readRegularFile('/proc/self/mountinfo')).toString(), / \/ /);
  writeFileSync(file, Buffer.alloc(2000, 'x'));
  await assert.rejects(readRegularFile(file, { maxBytes: 1000 }), { code: 'EFBIG' });
  assert.equal((await readRegularFile(file, { maxBytes: 2000 })).length, 2000);
});
