import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { makeFolder, makeFolderSync } from './make-folder.ts';

const base = mkdtempSync(join(tmpdir(), 'dd-make-folder-'));
process.on('exit', () => rmSync(base, { recursive: true, force: true }));

for (const [name, make] of [
  ['makeFolderSync', async (p: string, mode?: number) => makeFolderSync(p, mode)],
  ['makeFolder', makeFolder],
] as const) {
  describe(name, () => {
    it('creates the missing parents with the mode asked, and accepts a folder that exists', async () => {
      const deep = join(base, name, 'a', 'b', 'c');
      await make(deep, 0o700);
      assert.ok(statSync(deep).isDirectory());
      assert.equal(statSync(join(base, name, 'a')).mode & 0o777, 0o700);
      await make(deep); // again: nothing to do, no error
    });

    // The timeout bounds a spin (the defect), not a speed.
    it('fails, and does not spin, where mkdir says ENOENT under a parent that exists (/proc)', { timeout: 60_000 }, async () => {
      await assert.rejects(make('/proc/diskdelta-no-such/x'), { code: 'ENOENT' });
    });

    it('says ENOTDIR or EEXIST when a file is in the way', async () => {
      const file = join(base, `${name}-file`);
      writeFileSync(file, '');
      await assert.rejects(make(join(file, 'sub')), /ENOTDIR|EEXIST/);
      await assert.rejects(make(file), { code: 'ENOTDIR' });
    });
  });
}
