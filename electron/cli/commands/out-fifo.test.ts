// --out a FIFO that nobody reads (#23 item 7): `export --out` and `report --out` once waited
// forever in open(2). Every path a user names for output goes through writeUserFile; these
// run the real commands and watch, in /proc, whether a thread of the child sits in the
// kernel's wait for a FIFO partner (that is the hang, seen without a timer), or whether the
// child ends with the reason.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';

const CLI = fileURLToPath(new URL('../../../bin/diskdelta.js', import.meta.url));
const FIO = fileURLToPath(new URL('../../node/formats/fixtures/fio-3.33-json.json', import.meta.url));

/** True when a thread of `pid` waits in the kernel for the other end of a FIFO to open. */
function waitsForFifoPartner(pid: number): boolean {
  try {
    return readdirSync(`/proc/${pid}/task`).some((tid) =>
      /wait_for_partner|fifo_open/.test(readFileSync(`/proc/${pid}/task/${tid}/wchan`, 'utf8')),
    );
  } catch {
    return false;
  }
}

/** Runs the CLI; resolves with how it ended, or 'blocked' once it waits in open() of the FIFO. */
async function runWatched(args: string[]): Promise<{ code: number | null; stderr: string } | 'blocked'> {
  const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  let exited: number | null | undefined;
  const closed = new Promise<void>((ok) =>
    child.on('close', (code) => {
      exited = code;
      ok();
    }),
  );
  while (exited === undefined) {
    if (child.pid !== undefined && waitsForFifoPartner(child.pid)) {
      child.kill('SIGKILL');
      await closed;
      return 'blocked';
    }
    await sleep(20);
  }
  return { code: exited, stderr };
}

test('export --out and report --out a FIFO with no reader: refused with the reason, no hang', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'dd-out-fifo-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const db = join(dir, 'library.sqlite');
  assert.equal(spawnSync(process.execPath, [CLI, 'import', FIO, '--db', db]).status, 0);
  const fifo = join(dir, 'out.fifo');
  assert.equal(spawnSync('mkfifo', [fifo]).status, 0);
  for (const args of [
    ['export', '1', '--out', fifo],
    ['export', '1', '--format', 'csv', '--out', fifo],
    ['report', '1', '--html', '--out', fifo],
  ]) {
    const ended = await runWatched([...args, '--db', db]);
    assert.notEqual(ended, 'blocked', `${args.join(' ')} waits forever in open() for a reader`);
    if (ended === 'blocked') continue;
    assert.equal(ended.code, 1, ended.stderr);
    assert.match(ended.stderr, /out\.fifo: nothing is reading at the other end/);
    assert.doesNotMatch(ended.stderr, /\n\s+at /, 'no stack trace');
    assert.ok(statSync(fifo).isFIFO(), 'the FIFO is left a FIFO');
  }
});
