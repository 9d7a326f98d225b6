// writeUserFile: what is at the path decides how it is written, and nothing there is lost.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  existsSync,
  linkSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { openUserOutput, UserFileError, writeUserFile } from './write-user-file.ts';

const dir = mkdtempSync(join(tmpdir(), 'diskdelta-write-user-file-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const isRoot = process.getuid?.() === 0;
const NOBODY = 65534;

async function rejection(promise: Promise<unknown>): Promise<UserFileError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof UserFileError, `expected a UserFileError, got ${String(error)}`);
    return error;
  }
  assert.fail('the write succeeded');
}

/** Hidden temporary files left in the folder. */
const leftovers = () => readdirSync(dir).filter((name) => name.endsWith('.tmp'));

describe('writeUserFile', () => {
  it('creates a new file whole, with the default mode, and leaves no temporary file', async () => {
    const path = join(dir, 'new.json');
    await writeUserFile(path, '{"a":1}\n');
    assert.equal(readFileSync(path, 'utf8'), '{"a":1}\n');
    const umask = process.umask();
    assert.equal(statSync(path).mode & 0o777, 0o666 & ~umask);
    assert.deepEqual(leftovers(), []);
  });

  it('refuses an existing regular file without force and leaves it unchanged', async () => {
    const path = join(dir, 'kept.txt');
    writeFileSync(path, 'precious');
    const error = await rejection(writeUserFile(path, 'new'));
    assert.equal(error.code, 'exists');
    assert.match(error.message, /already exists and was left unchanged/);
    assert.equal(readFileSync(path, 'utf8'), 'precious');
  });

  it('with force, rewrites an existing file in place: same inode, owner, mode and hard links', async () => {
    const path = join(dir, 'owned.txt');
    const other = join(dir, 'owned-link.txt');
    writeFileSync(path, 'a much longer old content than the new one');
    chmodSync(path, 0o640);
    linkSync(path, other);
    if (isRoot) chownSync(path, NOBODY, NOBODY);
    const before = statSync(path);
    await writeUserFile(path, 'new', { force: true });
    const now = statSync(path);
    assert.equal(readFileSync(path, 'utf8'), 'new');
    assert.equal(readFileSync(other, 'utf8'), 'new', 'the hard link sees the new content');
    assert.equal(now.ino, before.ino);
    assert.equal(now.nlink, 2);
    assert.equal(now.mode & 0o777, 0o640);
    assert.equal(now.uid, before.uid);
    if (isRoot) assert.equal(now.uid, NOBODY);
    assert.deepEqual(leftovers(), []);
  });

  // #38 item 11: `report --out FILE --force` followed a symlink at FILE. In a folder others may
  // write, a link planted at the name sent a report run as root over any file.
  it('refuses a symlink at the path, with force too: neither the link nor what it points to is touched', async () => {
    const victim = join(dir, 'victim.txt');
    const link = join(dir, 'link.txt');
    writeFileSync(victim, 'precious');
    symlinkSync(victim, link);
    for (const force of [false, true]) {
      const error = await rejection(writeUserFile(link, 'through', { force }));
      assert.equal(error.code, 'refused');
      assert.match(
        error.message,
        /it is a symbolic link to .*victim\.txt, and DiskDelta does not write through links .*: name the file itself/,
      );
    }
    assert.ok(lstatSync(link).isSymbolicLink());
    assert.equal(readFileSync(victim, 'utf8'), 'precious');
    assert.deepEqual(leftovers(), []);
  });

  it('refuses a symlink to nothing, naming where it points, and creates nothing there', async () => {
    const link = join(dir, 'dangling.txt');
    symlinkSync(join(dir, 'nowhere', 'x'), link);
    const error = await rejection(writeUserFile(link, 'x'));
    assert.match(error.message, /symbolic link to .*nowhere\/x/);
    assert.equal(existsSync(join(dir, 'nowhere')), false);
  });

  it('a folder swapped for a symlink after the output was opened (a report rendering) does not redirect the file', async () => {
    const sub = join(dir, 'reports');
    const moved = join(dir, 'reports-moved');
    const elsewhere = join(dir, 'elsewhere');
    mkdirSync(sub);
    mkdirSync(elsewhere);
    const output = await openUserOutput(join(sub, 'report.pdf'));
    try {
      renameSync(sub, moved);
      symlinkSync(elsewhere, sub);
      await output.write('%PDF-1.7');
    } finally {
      await output.close();
    }
    assert.deepEqual(readdirSync(elsewhere), [], 'nothing written where the link points');
    assert.equal(readFileSync(join(moved, 'report.pdf'), 'utf8'), '%PDF-1.7', 'written in the folder that was opened');
    assert.deepEqual(readdirSync(moved), ['report.pdf'], 'no temporary file left');
  });

  it('a symlink planted at a new name after the output was opened is not followed: the write stops, the target is untouched', async () => {
    const victim = join(dir, 'victim2.txt');
    writeFileSync(victim, 'precious');
    const path = join(dir, 'late.json');
    const output = await openUserOutput(path);
    try {
      symlinkSync(victim, path);
      const error = await rejection(output.write('x'));
      assert.equal(error.code, 'refused');
    } finally {
      await output.close();
    }
    assert.equal(readFileSync(victim, 'utf8'), 'precious');
    assert.deepEqual(leftovers(), []);
  });

  it('writes /dev/null directly: it stays a character device', async () => {
    await writeUserFile('/dev/null', 'gone', { force: false });
    assert.ok(statSync('/dev/null').isCharacterDevice());
  });

  it('reports a write error of a device: /dev/full is "no space", not success', async () => {
    const error = await rejection(writeUserFile('/dev/full', 'x'.repeat(10000)));
    assert.equal(error.code, 'failed');
    assert.equal(error.message, 'cannot write /dev/full: no space left on the device (ENOSPC)');
    assert.ok(statSync('/dev/full').isCharacterDevice());
  });

  it('writes /dev/stdout through the descriptor: a pipe receives the bytes', async () => {
    const module = fileURLToPath(new URL('./write-user-file.ts', import.meta.url));
    const script = `import { writeUserFile } from ${JSON.stringify(module)}; await writeUserFile('/dev/stdout', 'x'.repeat(300000) + 'end\\n');`;
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', maxBuffer: 1 << 22 });
    assert.equal(child.status, 0, child.stderr);
    assert.equal(child.stdout.length, 300004);
    assert.ok(child.stdout.endsWith('end\n'));
    assert.ok(lstatSync('/dev/stdout').isSymbolicLink());
  });

  it('writes a FIFO to its reader and leaves it a FIFO', async () => {
    const fifo = join(dir, 'pipe');
    assert.equal(spawnSync('mkfifo', [fifo]).status, 0);
    const reader = spawn('cat', [fifo], { stdio: ['ignore', 'pipe', 'inherit'] });
    let got = '';
    reader.stdout.setEncoding('utf8').on('data', (chunk: string) => (got += chunk));
    const closed = new Promise((ok) => reader.on('close', ok));
    await writeUserFile(fifo, 'through the pipe\n');
    await closed;
    assert.equal(got, 'through the pipe\n');
    assert.ok(statSync(fifo).isFIFO());
  });

  it('writes 4 MiB through a FIFO, more than the pipe holds: a full pipe is waited on', async () => {
    const fifo = join(dir, 'big-pipe');
    assert.equal(spawnSync('mkfifo', [fifo]).status, 0);
    const reader = spawn('wc', ['-c', fifo], { stdio: ['ignore', 'pipe', 'inherit'] });
    let got = '';
    reader.stdout.setEncoding('utf8').on('data', (chunk: string) => (got += chunk));
    const closed = new Promise((ok) => reader.on('close', ok));
    await writeUserFile(fifo, new Uint8Array(4 * 1024 * 1024).fill(65));
    await closed;
    assert.equal(Number.parseInt(got, 10), 4 * 1024 * 1024);
  });

  it('refuses a block device without opening it', { skip: !isRoot && 'needs root to make a device node' }, async () => {
    const node = join(dir, 'blockdev');
    // Major 7 is loop; minor 250 is not attached here. The node is never opened either way.
    assert.equal(spawnSync('mknod', [node, 'b', '7', '250']).status, 0);
    const error = await rejection(writeUserFile(node, 'x', { force: true }));
    assert.equal(error.code, 'refused');
    assert.match(error.message, /block device, and DiskDelta never writes to disks/);
  });

  it('refuses a folder', async () => {
    const error = await rejection(writeUserFile(dir, 'x', { force: true }));
    assert.match(error.message, /is a folder; name a file inside it/);
  });

  it('names the missing folder, never the hidden temporary file', async () => {
    const path = join(dir, 'missing', 'out.json');
    const error = await rejection(writeUserFile(path, 'x'));
    assert.equal(error.message, `cannot write ${path}: the folder ${join(dir, 'missing')} does not exist`);
    assert.doesNotMatch(error.message, /\.tmp/);
  });

  it(
    'names the path, not the temporary file, when the folder is not writable',
    { skip: isRoot && 'root writes anywhere; runs as a normal user' },
    async () => {
      const locked = join(dir, 'locked');
      spawnSync('mkdir', ['-m', '0555', locked]);
      const error = await rejection(writeUserFile(join(locked, 'out.json'), 'x'));
      assert.equal(error.message, `cannot write ${join(locked, 'out.json')}: permission denied (EACCES)`);
    },
  );
});
