// A working-set scan reads no file data, so it takes no disk lock (issue #40, item 5): run
// while another process holds the machine-wide lock of the scanned folder's disk, the scan
// completes; a measuring run on the same disk still waits for that lock. The holder is a real
// second process holding the real lock (disk-lock.ts), as another DiskDelta measuring would.
// It holds the lock of the disk under the temp folder, hence the need 'disk' in the manifest.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { BenchEvent } from '../../shared/model/spec.ts';
import { diskLockKey, runBenchmark } from './orchestrator.ts';
import { summaryOfResult, type WorkingSetSummary } from '../../shared/analysis/working-set.ts';

const LOCK_MODULE = fileURLToPath(new URL('./disk-lock.ts', import.meta.url));

/**
 * Another process that holds the disk lock `key` until its stdin closes; resolves once held. It
 * waits (bounded) while some other DiskDelta process on this shared machine measures that disk.
 */
function holdInAnotherProcess(key: string, target: string): Promise<() => void> {
  const script =
    `const { acquireDiskLock } = await import(${JSON.stringify(LOCK_MODULE)});` +
    `await acquireDiskLock(${JSON.stringify(key)}, ${JSON.stringify(target)}, { wait: true });` +
    `process.stdout.write('held\\n'); process.stdin.resume(); process.stdin.on('end', () => process.exit(0));`;
  const holder = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['pipe', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error('the holder did not get the lock within 150 s: another process measures this disk')),
      150_000,
    );
    holder.stdout.setEncoding('utf8').on('data', (text: string) => {
      if (!text.includes('held')) return;
      clearTimeout(timer);
      resolve(() => holder.stdin.end());
    });
    holder.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the holder ended (exit ${code}) before holding the lock`));
    });
  });
}

test(
  'a working-set scan completes while another process holds the disk lock; a measuring run still waits',
  { timeout: 240_000 },
  async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'dd-scan-lock-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    for (let i = 0; i < 5; i++) writeFileSync(join(dir, `file-${i}.bin`), Buffer.alloc(4096 * (i + 1), 1));
    const release = await holdInAnotherProcess(await diskLockKey(dir), dir);
    t.after(release);

    // Bounded: a scan that waited for the lock would be aborted here and fail the test.
    const events: BenchEvent[] = [];
    const record = await runBenchmark(
      { target: dir, tests: ['working-set'] },
      { signal: AbortSignal.timeout(60_000), onEvent: (e) => events.push(e) },
    );
    const summary = summaryOfResult(record.results[0]!) as WorkingSetSummary;
    assert.equal(summary.files, 5);
    assert.equal(summary.totalBytes, 4096 * 15);
    assert.ok(!events.some((e) => e.type === 'warning' && e.code === 'disk-busy'), 'the scan never said it waited for the disk');

    // The lock still guards what measures: a rate test says it waits, and stops when cancelled.
    const waited: string[] = [];
    const controller = new AbortController();
    const measuring = runBenchmark(
      { target: dir, tests: ['seq1m-q1t1-read'], sizeBytes: 16 * 2 ** 20, durationSec: 1, warmupSec: 0, runs: 1 },
      {
        signal: controller.signal,
        onEvent: (e) => {
          if (e.type === 'warning' && e.code === 'disk-busy') {
            waited.push(e.message);
            controller.abort();
          }
        },
      },
    );
    const guard = setTimeout(() => controller.abort(), 30_000);
    try {
      await assert.rejects(measuring, /cancelled while it waited for the disk/);
    } finally {
      clearTimeout(guard);
    }
    assert.equal(waited.length, 1, 'the measuring run said it waited for the disk');
  },
);
