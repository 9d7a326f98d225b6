// Issue 40 item 1: `diskdelta record` on files written while it records. Ten files of known size
// are written in 64 KiB writes on ext4 (a loop device) while `record DIR --for 8s` runs: the
// recorder merges a file's writes within a second into one touch, and kept that touch at the
// size of its first write (ten 10 MiB files came out as 32 MB). The truth is the bytes written:
// the distinct bytes must equal them, within one 4 KiB block per file, and the cache curve built
// on the trace must count them too (its largest size holds every distinct byte). Needs root,
// losetup, mkfs.ext4; skips with the reason elsewhere.
import { spawn } from 'node:child_process';
import { closeSync, existsSync, fsyncSync, mkdtempSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { folderIn, scratchExt4, scratchUnavailable } from '../electron/node/bench/trim/fixtures/scratch-ext4.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const MiB = 2 ** 20;
const BLOCK = 4096;
const FILES = 10;
const FILE_BYTES = 4 * MiB;
const CHUNK = 64 * 1024;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('record: files written during the recording (issue 40 item 1)', () => {
  it(
    'distinct bytes equal the bytes written (±1 block per file), and the curve counts them',
    { skip: scratchUnavailable ?? false, timeout: 60_000 },
    async (t) => {
      const scratch = scratchExt4(t, 256 * MiB, 'dd-corners-');
      scratch.mount('rw');
      const home = folderIn(scratch);
      const dir = mkdtempSync(join(tmpdir(), 'dd-corners-record-'));
      t.after(() => rmSync(dir, { recursive: true, force: true }));
      const trace = join(dir, 'trace.ndjson');
      const child = spawn(process.execPath, ['bin/diskdelta.js', 'record', home, '--for', '8s', '--trace', trace, '--json', '--no-save'], {
        cwd: ROOT,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      t.after(() => child.kill('SIGKILL'));
      let stdout = '';
      let stderr = '';
      child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
      child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
      const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
      // The recorder is watching once its session line is in the trace (bounded: 15 s).
      for (let i = 0; i < 150 && !(existsSync(trace) && readFileSync(trace, 'utf8').includes('"type":"session"')); i++) await sleep(100);
      assert.ok(existsSync(trace) && readFileSync(trace, 'utf8').includes('"type":"session"'), `the recorder never started: ${stderr}`);

      // Each file in 64 KiB writes over ~200 ms: many writes, one merged touch.
      const chunk = Buffer.alloc(CHUNK, 0x5a);
      for (let f = 0; f < FILES; f++) {
        const fd = openSync(join(home, `grown-${f}`), 'w');
        for (let at = 0; at < FILE_BYTES; at += CHUNK) {
          writeSync(fd, chunk);
          if (at % (16 * CHUNK) === 0) await sleep(10);
        }
        fsyncSync(fd);
        closeSync(fd);
      }
      const code = await Promise.race([exited, sleep(30_000).then(() => 'hung' as const)]);
      assert.equal(code, 0, `record ended with ${code}: ${stderr}`);
      const out = JSON.parse(stdout) as {
        curve: { distinctBytes: number; accessedBytes: number; curve: { points: Array<{ cacheBytes: number; hitRatio: number }> } };
      };
      const written = FILES * FILE_BYTES;
      const { distinctBytes, accessedBytes } = out.curve;
      assert.ok(
        Math.abs(distinctBytes - written) <= FILES * BLOCK,
        `distinct bytes ${distinctBytes.toLocaleString('en')} for ${written.toLocaleString('en')} written (±${FILES * BLOCK} allowed)`,
      );
      assert.ok(accessedBytes >= written - FILES * BLOCK, `accessed bytes ${accessedBytes} count every byte written (${written})`);
      const largest = out.curve.curve.points.at(-1)!;
      assert.ok(largest.cacheBytes >= distinctBytes, `the curve's largest cache, ${largest.cacheBytes} bytes, holds every distinct byte`);
    },
  );
});
