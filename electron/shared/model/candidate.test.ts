// The spec sheet's schema: the example passes, and every kind of bad figure (missing, negative,
// absurd, inconsistent, unknown) is refused with a message that names its field.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  candidateProblems,
  EXAMPLE_CANDIDATE,
  MAX_SPEC_BYTES,
  parseCandidateSpec,
  parseSpecText,
  type CandidateSpec,
} from './candidate.ts';

/** The example with one change made by `edit`. */
function edited(edit: (s: Record<string, any>) => void): unknown {
  const s = structuredClone(EXAMPLE_CANDIDATE) as Record<string, any>;
  edit(s);
  return s;
}

/** The one problem found, which must start with the field's path. */
function onlyProblem(input: unknown, field: string): string {
  const problems = candidateProblems(input);
  assert.equal(problems.length, 1, `one problem expected, got: ${problems.join(' | ')}`);
  assert.ok(problems[0]!.startsWith(`${field}: `), `'${problems[0]}' names ${field}`);
  return problems[0]!;
}

describe('candidate spec sheet', () => {
  it('the example passes and keeps every figure', () => {
    const parsed = parseCandidateSpec(JSON.parse(JSON.stringify(EXAMPLE_CANDIDATE)));
    assert.ok(parsed.ok);
    assert.deepEqual(parsed.spec, EXAMPLE_CANDIDATE satisfies CandidateSpec);
  });

  it('a missing figure is named', () => {
    assert.match(
      onlyProblem(
        edited((s) => delete s.sequentialMBps.read),
        'sequentialMBps.read',
      ),
      /missing/,
    );
    assert.match(
      onlyProblem(
        edited((s) => delete s.capacityGB),
        'capacityGB',
      ),
      /missing/,
    );
    assert.match(
      onlyProblem(
        edited((s) => delete s.random4kIops.qd1.write),
        'random4kIops.qd1.write',
      ),
      /missing/,
    );
    assert.match(
      onlyProblem(
        edited((s) => delete s.enduranceTBW),
        'enduranceTBW',
      ),
      /missing/,
    );
  });

  it('a negative or zero figure is named', () => {
    assert.match(
      onlyProblem(
        edited((s) => (s.capacityGB = -1000)),
        'capacityGB',
      ),
      /above 0/,
    );
    assert.match(
      onlyProblem(
        edited((s) => (s.fastCache.sizeGB = -1)),
        'fastCache.sizeGB',
      ),
      /negative/,
    );
    assert.match(
      onlyProblem(
        edited((s) => (s.enduranceTBW = 0)),
        'enduranceTBW',
      ),
      /above 0/,
    );
  });

  it('an absurd figure (over 100 GB/s, over 1 PB) is named', () => {
    assert.match(
      onlyProblem(
        edited((s) => (s.sequentialMBps.read = 150_000)),
        'sequentialMBps.read',
      ),
      /absurd.*100 GB\/s/,
    );
    assert.match(
      onlyProblem(
        edited((s) => (s.random4kIops.qd32.read = 5e7)),
        'random4kIops.qd32.read',
      ),
      /absurd/,
    );
    assert.match(
      onlyProblem(
        edited((s) => (s.capacityGB = 2e6)),
        'capacityGB',
      ),
      /absurd/,
    );
    assert.match(
      onlyProblem(
        edited((s) => (s.sequentialMBps.write = 'fast')),
        'sequentialMBps.write',
      ),
      /number/,
    );
  });

  it('sequential slower than 4K random in the same direction is refused, per direction and queue depth', () => {
    // 98,000 IOPS of 4 KiB is 401 MB/s: a sequential read of 300 is slower.
    assert.match(
      onlyProblem(
        edited((s) => (s.sequentialMBps.read = 300)),
        'sequentialMBps.read',
      ),
      /slower than 4K random read at QD32/,
    );
    // 35,000 IOPS at QD1 is 143 MB/s: a write of 130 (cache speed lowered to stay consistent) is slower than both.
    const problems = candidateProblems(
      edited((s) => {
        s.sequentialMBps.write = 130;
        s.fastCache.writeMBpsPastCache = 100;
      }),
    );
    assert.deepEqual(
      problems.map((p) => p.split(': ')[0]),
      ['sequentialMBps.write', 'sequentialMBps.write'],
    );
    assert.match(problems.join('\n'), /QD1[\s\S]*QD32/);
  });

  it('a cache larger than the drive, or a write past it faster than into it, is refused', () => {
    assert.match(
      onlyProblem(
        edited((s) => (s.fastCache.sizeGB = 1500)),
        'fastCache.sizeGB',
      ),
      /larger than the drive/,
    );
    assert.match(
      onlyProblem(
        edited((s) => (s.fastCache.writeMBpsPastCache = 540)),
        'fastCache.writeMBpsPastCache',
      ),
      /faster than the write into the cache/,
    );
  });

  it('an unknown field, a wrong format, an unknown interface are named', () => {
    assert.deepEqual(candidateProblems(edited((s) => (s.seqRead = 1))), ['unknown field seqRead: see diskdelta forecast --example']);
    assert.match(
      onlyProblem(
        edited((s) => (s.format = 'x')),
        'format',
      ),
      /diskdelta-candidate/,
    );
    assert.match(
      onlyProblem(
        edited((s) => (s.interface = 'scsi')),
        'interface',
      ),
      /sata, nvme, usb/,
    );
  });
});

describe('a spec sheet file as text (the CLI and the app read it alike)', () => {
  it('JSON up to 64 KiB is taken; past it, or not JSON, is refused naming the file and what to do', () => {
    assert.deepEqual(parseSpecText(JSON.stringify(EXAMPLE_CANDIDATE), 'ssd.json'), { ok: true, json: EXAMPLE_CANDIDATE });
    assert.deepEqual(parseSpecText(' '.repeat(MAX_SPEC_BYTES + 1), 'big.json'), {
      ok: false,
      problem: 'big.json is not a spec sheet: larger than 64 KiB',
    });
    const notJson = parseSpecText('{ "name": ', 'half.json');
    assert.ok(!notJson.ok);
    assert.match(notJson.problem, /^half\.json is not JSON \(.*\): diskdelta forecast --example prints a spec sheet to fill in$/);
  });
});
