import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TESTS } from '../../../shared/model/catalog.ts';
import { planRun } from '../orchestrator.ts';
import { KINDS, kindById } from './index.ts';

describe('the kinds table', () => {
  it('has an entry for the kind of every catalog test, and ids are unique', () => {
    assert.equal(new Set(KINDS.map((k) => k.id)).size, KINDS.length);
    for (const t of TESTS) assert.ok(kindById(t.kind), `${t.id}: kind '${t.kind}' is in the table`);
  });

  it("planRun: tests grouped by kind, each plan checked by its kind's schema, defaults from the preset", async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'dd-kinds-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const { steps } = await planRun({ target: dir, preset: 'quick', runs: 2 });
    assert.equal(steps.length, 1);
    assert.equal(steps[0]?.kind.id, 'rate');
    assert.deepEqual(steps[0]?.tests, ['seq1m-q8t1-read', 'seq1m-q8t1-write', 'rnd4k-q1t1-read', 'rnd4k-q1t1-write']);
    assert.deepEqual(steps[0]?.plan, {
      target: dir,
      tests: steps[0]?.tests,
      sizeBytes: 256 * 2 ** 20,
      durationSec: 1,
      warmupSec: 0.3,
      pauseSec: 0,
      readOnly: false,
      runs: 2,
      precision: 0,
      maxTimeSec: 2,
      buffered: false,
      sampleMs: 100,
      statistic: 'median',
    });
  });

  it('a test no kind runs is refused before anything starts, naming it', async () => {
    await assert.rejects(
      planRun({ target: '/tmp', tests: ['cipher-aes-xts-plain64'] }),
      /invalid benchmark request: tests\.0: unknown test/,
    );
  });

  it("the rate kind's plan schema refuses what the worker would refuse", () => {
    const rate = kindById('rate')!;
    const plan = {
      target: '/tmp',
      tests: ['seeks'],
      sizeBytes: 2 ** 20,
      durationSec: 1,
      warmupSec: 0,
      runs: 1,
      precision: 0,
      maxTimeSec: 1,
      buffered: false,
      sampleMs: 100,
      pauseSec: 0,
      readOnly: false,
      statistic: 'median',
    };
    assert.ok(!rate.planSchema.safeParse(plan).success, '1 MiB is below the 16 MiB minimum');
    assert.ok(rate.planSchema.safeParse({ ...plan, sizeBytes: 2 ** 24 }).success);
    assert.ok(!rate.planSchema.safeParse({ ...plan, sizeBytes: 2 ** 24, precision: 0.9 }).success, 'an interval of ±90 % is no precision');
  });
});
