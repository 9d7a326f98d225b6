// readLines: a file's lines one at a time, across the 1 MiB chunks it reads, with a line longer
// than the cap cut to the cap (never held whole), and never through a link at the file's name.
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readLines } from './read-lines.ts';

function tempDir(t: { after: (fn: () => void) => void }): string {
  const dir = mkdtempSync(join(tmpdir(), 'dd-read-lines-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

describe('readLines', () => {
  it('gives every line, whole, where lines cross the chunks it reads; a last line without a newline too', (t) => {
    const file = join(tempDir(t), 'lines');
    // Lines of 1..99 characters, about 2.5 MiB: many cross a 1 MiB boundary.
    const lines = Array.from({ length: 50_000 }, (_, i) => `${i}:${'é'.repeat(i % 50)}`);
    writeFileSync(file, `${lines.join('\n')}\nlast`);
    assert.deepEqual([...readLines(file)], [...lines, 'last']);
  });

  it('cuts a line longer than the cap to the cap and goes on with the next', (t) => {
    const file = join(tempDir(t), 'long');
    writeFileSync(file, `a\n${'x'.repeat(3 * 2 ** 20)}\nb\n`);
    assert.deepEqual(
      [...readLines(file, 16)].map((l) => (l.length > 1 ? `${l[0]}×${l.length}` : l)),
      ['a', 'x×16', 'b'],
    );
  });

  it('refuses a symbolic link at the name', (t) => {
    const dir = tempDir(t);
    writeFileSync(join(dir, 'real'), 'x\n');
    symlinkSync(join(dir, 'real'), join(dir, 'link'));
    assert.throws(() => [...readLines(join(dir, 'link'))], /ELOOP/);
  });
});
