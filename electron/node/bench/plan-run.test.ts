import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { tmpdir } from 'node:os';
import { planRun } from './orchestrator.ts';
import { PRESETS } from '../../shared/catalog/presets.ts';
import { TRUST } from '../../shared/analysis/statistics.ts';
import type { BenchSpec } from '../../shared/model/spec.ts';
import type { WorkerPlan } from './worker-argv.ts';

/** The rate step's plan (every test here is of the rate kind: one step). */
async function ratePlan(spec: BenchSpec): Promise<WorkerPlan> {
  const { steps } = await planRun(spec);
  assert.equal(steps.length, 1);
  return steps[0]!.plan as WorkerPlan;
}

describe('planRun: how many runs', () => {
  test('standard and full stop adaptively at ±2 %; quick and seeks run a fixed count', async () => {
    for (const preset of ['standard', 'full'] as const) {
      const plan = await ratePlan({ target: tmpdir(), preset });
      assert.equal(plan.precision, TRUST.precision, preset);
      assert.equal(plan.maxTimeSec, PRESETS[preset].maxTimeSec);
      assert.ok(plan.runs >= 5, `${preset}: at least 5 runs before an interval may stop it`);
    }
    for (const preset of ['quick', 'seeks'] as const) assert.equal((await ratePlan({ target: tmpdir(), preset })).precision, 0, preset);
  });

  test("an explicit --runs is a fixed count (CrystalDiskMark's 5 × 5 s), unless a precision is asked too", async () => {
    const cdm = await ratePlan({ target: tmpdir(), runs: 5, durationSec: 5 });
    assert.deepEqual([cdm.runs, cdm.durationSec, cdm.precision], [5, 5, 0]);
    const both = await ratePlan({ target: tmpdir(), runs: 3, precision: 0.01 });
    assert.deepEqual([both.runs, both.precision], [3, 0.01]);
  });

  test('a longer --duration keeps the fewest runs within the time limit', async () => {
    const plan = await ratePlan({ target: tmpdir(), durationSec: 5 });
    assert.equal(plan.precision, TRUST.precision);
    assert.equal(plan.maxTimeSec, plan.runs * 5);
    assert.equal((await ratePlan({ target: tmpdir(), durationSec: 5, maxTimeSec: 7 })).maxTimeSec, 7, 'unless --max-time says otherwise');
  });
});
