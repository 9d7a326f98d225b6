// One table of presets (#39 item 4): the assessment's "Measure now" runs exactly the CLI's
// `--preset NAME`. Compared as resolved plans (what the worker is told), not as names: the app
// once sent `runs: 1` beside the name, and `full` became one 0.2 s window per test.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { appMeasureSpec, MEASURE_NOW_PRESETS, PRESETS, presetTiming } from '../shared/catalog/presets.ts';
import { planRun } from '../node/bench/orchestrator.ts';
import { specFromFlags } from './commands/run.ts';
import { describePreset } from '../../renderer/src/view/new-run-form.ts';

/** Each step's kind and its plan with the label left out (the two name their runs differently). */
async function resolved(spec: Parameters<typeof planRun>[0]) {
  const { steps, warnings } = await planRun(spec);
  return { warnings, steps: steps.map((s) => ({ kind: s.kind.id, tests: s.tests, plan: s.plan })) };
}

describe('"Measure now" and the CLI run one table of presets', () => {
  test("every preset the app offers resolves to the same plan as the CLI's --preset NAME", async (t) => {
    const dir = await mkdtemp(join(tmpdir(), 'dd-measure-now-'));
    t.after(() => rm(dir, { recursive: true, force: true }));
    for (const name of MEASURE_NOW_PRESETS) {
      const app = await resolved(appMeasureSpec(dir, name, 'x: after'));
      const cli = await resolved(specFromFlags({ target: dir, preset: name }));
      assert.deepEqual(app, cli, name);
      // And that plan is the table's timing, not a fixed single run.
      const plan = app.steps[0]!.plan as { runs: number; durationSec: number; precision: number };
      assert.equal(plan.runs, PRESETS[name].runs, name);
      assert.equal(plan.durationSec, PRESETS[name].durationSec, name);
      assert.equal(plan.precision, PRESETS[name].precision, name);
    }
  });

  test("the card says the preset's timing before it starts: runs × seconds per test, the tests, roughly how long", () => {
    assert.match(
      presetTiming('full') ?? '',
      /^at least 5 runs × 0\.2 s per test, .*at most 1\.2 s.*; 10 tests; ~\d+ s plus writing the 1 GiB test file$/,
    );
    assert.match(presetTiming('quick') ?? '', /^1 run × 1 s per test, after a 0\.3 s warm-up; 4 tests; ~5 s/);
    assert.match(presetTiming('peak') ?? '', /^3 runs × 5 s per test, .*5 s idle; 4 tests; ~2 min/);
    assert.equal(presetTiming('workloads'), null, 'seconds per phase: no timed windows to say');
    // The New run form says the same timing, from the same function.
    for (const name of MEASURE_NOW_PRESETS) assert.ok(describePreset(name).includes(presetTiming(name)!), name);
  });
});
