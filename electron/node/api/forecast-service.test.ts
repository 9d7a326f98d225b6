// Which workload runs the judged forecast reads (#42): the before disk's (those the forecast read)
// and the new disk's, each by run-kind.ts's sameDisk. A workload timed on a third disk, however
// new, is never taken for the new disk's; none timed there says the command, never an error.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { assessmentForecast } from './forecast-service.ts';
import { openLibrary, type Library } from '../store/library.ts';
import { currentDiskRun, workloadRun } from '../../shared/analysis/forecast-fixtures.ts';
import type { RunRecord } from '../../shared/model/results.ts';
import { EXAMPLE_CANDIDATE } from '../../shared/model/candidate.ts';

const dir = mkdtempSync(join(tmpdir(), 'dd-forecast-service-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const CPU = { model: null, cpus: 2 };

/** A fixture run moved to another disk (SYNTHETIC), its workload passes divided by `faster`, taken later. */
function onDisk(run: RunRecord, disk: { name: string; model: string; serial: string }, faster: number, at: string): RunRecord {
  return {
    ...run,
    createdAt: at,
    target: { ...run.target, path: `/mnt/${disk.name}`, device: { ...run.target.device!, ...disk } },
    results: run.results.map((r) => ({
      ...r,
      ...(r.bytesPerSec !== null ? { bytesPerSec: r.bytesPerSec * 2.6 } : {}),
      figures: r.figures?.map((f) => ({ ...f, value: f.value! / faster, passes: f.passes!.map((p) => p / faster) })),
    })),
  };
}

const NEW = { name: 'sdb', model: 'New SSD', serial: 'NEW1' };
const THIRD = { name: 'sdc', model: 'USB stick', serial: 'USB1' };

function assessed(name: string, save: (lib: Library) => void) {
  const lib = openLibrary({ dbPath: join(dir, `${name}.sqlite`) });
  try {
    const before = lib.saveRun(currentDiskRun());
    lib.saveRun(workloadRun());
    const afterRun = lib.saveRun(onDisk(currentDiskRun({ label: 'the new SSD' }), NEW, 1, '2026-12-02T10:00:00.000Z'));
    save(lib);
    const a = lib.createAssessment('laptop', { before, after: afterRun });
    lib.setAssessmentCandidates(a.id, [{ kind: 'spec', source: 'ssd.json', spec: EXAMPLE_CANDIDATE }]);
    const got = assessmentForecast(lib, lib.getAssessment(a.id)!, CPU)!;
    return got.judged![0]!.workloads;
  } finally {
    lib.close();
  }
}

test('a workload timed on the new disk is judged against the same workload on the before disk', () => {
  const workloads = assessed('after', (lib) => lib.saveRun(onDisk(workloadRun(), NEW, 4, '2026-12-02T11:00:00.000Z')));
  const tree = workloads.find((w) => w.test === 'tree')!;
  assert.equal(tree.measured?.gain, 4);
  assert.equal(tree.measured?.beforeSeconds, 25);
  assert.equal(tree.measured?.afterRun, 4, 'the new disk’s workload run');
  assert.equal(tree.measured?.beforeRun, 2, 'the workload run the forecast read');
});

test('a workload timed on a third disk is not taken for the new disk’s, however new', () => {
  const workloads = assessed('third', (lib) => {
    lib.saveRun(onDisk(workloadRun(), NEW, 4, '2026-12-02T11:00:00.000Z'));
    lib.saveRun(onDisk(workloadRun(), THIRD, 10, '2026-12-03T11:00:00.000Z'));
  });
  assert.deepEqual(
    workloads.map((w) => w.measured?.gain),
    [4, 4, 4],
  );
  // Only the third disk timed them: nothing measured, the command said.
  const only = assessed('only-third', (lib) => lib.saveRun(onDisk(workloadRun(), THIRD, 10, '2026-12-03T11:00:00.000Z')));
  assert.deepEqual(
    only.map((w) => w.measured),
    [null, null, null],
  );
  assert.equal(only[0]!.why, 'bigfile: not measured on the new disk; diskdelta run --tests bigfile --target /mnt/sdb times it there');
});

test('no workload timed on the new disk: each forecast kept, the command said, no error', () => {
  const workloads = assessed('none', () => {});
  assert.equal(workloads.length, 3);
  for (const w of workloads) {
    assert.equal(w.measured, null);
    assert.ok(w.forecastGain! > 0);
    assert.match(w.why!, /^(bigfile|tree): not measured on the new disk; diskdelta run --tests \w+ --target \/mnt\/sdb times it there$/);
  }
});
