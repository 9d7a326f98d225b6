// The access-recorder kind turning a finished trace into its result: the trace read as a stream
// (one over 512 MiB once crashed every later summary with ERR_STRING_TOO_LONG, and a long one
// held every touch in memory), and the killed-session warning counting each session that did
// not end cleanly. The recorder itself: native/test/access-recorder.test.ts.
import { spawnSync } from 'node:child_process';
import { closeSync, ftruncateSync, mkdtempSync, openSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { accessRecorderKind, type AccessRecorderPlan } from './access-recorder.ts';
import type { StepContext } from './kind.ts';
import { curveOfResult } from '../../../shared/analysis/access-trace.ts';
import type { TestResult } from '../../../shared/model/results.ts';

const KiB = 1024;
const header = JSON.stringify({ v: 1, type: 'trace', fsid: 'abcd', fs: 'ext2/3/4', key: '00'.repeat(16), created_ms: 0 });
const session = (t: number) => JSON.stringify({ type: 'session', t, merge_ms: 1000, group: 'descriptors' });
const end = (t: number) => JSON.stringify({ type: 'end', t, why: 'signal' });
const touch = (t: number, f: string, s: number) => JSON.stringify({ t, f, s, k: 'r' });
const ended = {
  type: 'record-result',
  v: 1,
  why: 'signal',
  seconds: 1,
  events: 0,
  records: 0,
  files: 0,
  merged: 0,
  unopenable: 0,
  unsized: 0,
  lost: 0,
} as const;

/** The kind's result for the trace at `trace`, as the CLI gets it once the worker has ended. */
function resultOf(trace: string): TestResult[] {
  const plan: AccessRecorderPlan = { target: '/home', trace, seconds: 0, mergeMs: 1000, helper: null };
  const step = accessRecorderKind.start(plan, { emit: () => {} } as unknown as StepContext);
  step.read(ended);
  return step.results(null);
}

function tempDir(t: { after: (fn: () => void) => void }): string {
  const dir = mkdtempSync(join(tmpdir(), 'dd-trace-kind-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

describe('the access-recorder kind', () => {
  for (const kills of [0, 1, 3]) {
    it(`a trace with ${kills} killed session(s) before this one says exactly that many`, (t) => {
      const trace = join(tempDir(t), 'trace.ndjson');
      const lines = [header];
      let at = 1000;
      for (let i = 0; i < kills; i++) lines.push(session((at += 1000)), touch((at += 10), `k${i}`, 4 * KiB));
      lines.push(session((at += 1000)), touch((at += 10), 'a', 8 * KiB), end(at + 10));
      writeFileSync(trace, `${lines.join('\n')}\n`);
      const warning = resultOf(trace)[0]?.warnings.find((w) => w.code === 'record-killed');
      if (kills === 0) assert.equal(warning, undefined);
      else assert.match(warning?.message ?? '', new RegExp(`^${kills} sessions? of this trace ended without stopping cleanly`));
    });
  }

  it('a trace over 512 MiB (a crash left 600 MiB of zeros in it) is read as a stream: the touches on both sides counted', (t) => {
    const trace = join(tempDir(t), 'trace.ndjson');
    const fd = openSync(trace, 'w');
    writeSync(fd, `${[header, session(1000), touch(2000, 'a', 8 * KiB), touch(3000, 'b', 4 * KiB)].join('\n')}\n`);
    // Zeros without a newline, as an appended file keeps after a crash: a hole, so no disk is written.
    const zerosEnd = 600 * 2 ** 20;
    ftruncateSync(fd, zerosEnd);
    writeSync(fd, `\n${[session(10_000), touch(11_000, 'a', 8 * KiB), end(12_000)].join('\n')}\n`, zerosEnd);
    closeSync(fd);
    const results = resultOf(trace);
    const kept = results[0] ? curveOfResult(results[0]) : null;
    assert.ok(kept, 'a result');
    assert.equal(kept.touches, 3);
    assert.equal(kept.distinctBytes, 12 * KiB);
    assert.equal(kept.accessedBytes, 20 * KiB);
    assert.ok(
      results[0]!.warnings.some((w) => w.code === 'record-killed'),
      'the session the crash cut is said',
    );
  });

  it('a long trace is summed in memory bounded by its files, not its touches (a V8 heap of 40 MiB)', (t) => {
    const dir = tempDir(t);
    const trace = join(dir, 'trace.ndjson');
    const fd = openSync(trace, 'w');
    writeSync(fd, `${header}\n${session(0)}\n`);
    // 600,000 touches of 1,000 files round-robin (~36 MB): each touch held as an object took
    // well over the heap this child gets.
    const files = 1000;
    for (let block = 0; block < 60; block++) {
      const lines: string[] = [];
      for (let i = 0; i < 10_000; i++) {
        const n = block * 10_000 + i;
        lines.push(touch(n + 1, `f${n % files}`, 4 * KiB));
      }
      writeSync(fd, `${lines.join('\n')}\n`);
    }
    writeSync(fd, `${end(700_000)}\n`);
    closeSync(fd);
    // The child runs what the CLI runs once the worker has ended (not this file: it would run its tests).
    const script = `
      import { accessRecorderKind } from ${JSON.stringify(fileURLToPath(new URL('./access-recorder.ts', import.meta.url)))};
      import { curveOfResult } from ${JSON.stringify(fileURLToPath(new URL('../../../shared/analysis/access-trace.ts', import.meta.url)))};
      const plan = { target: '/home', trace: ${JSON.stringify(trace)}, seconds: 0, mergeMs: 1000, helper: null };
      const step = accessRecorderKind.start(plan, { emit: () => {} });
      step.read(${JSON.stringify(ended)});
      const kept = curveOfResult(step.results(null)[0]);
      process.stdout.write(JSON.stringify({ touches: kept.touches, distinct: kept.distinctBytes, top: kept.curve.points.at(-1) }));
    `;
    const child = spawnSync(process.execPath, ['--max-old-space-size=40', '--input-type=module', '-e', script], {
      encoding: 'utf8',
      timeout: 120_000,
    });
    assert.equal(child.status, 0, child.stderr.slice(-2000));
    const out = JSON.parse(child.stdout) as { touches: number; distinct: number; top: { hitRatio: number } };
    assert.equal(out.touches, 600_000);
    assert.equal(out.distinct, files * 4 * KiB);
    // A cache holding all 1,000 files misses only their first touches.
    assert.equal(out.top.hitRatio, (600_000 - files) / 600_000);
  });
});
