// The worker's verbs and options are written once (worker-options.ts); the C header its parser,
// ranges and --help come from is generated from it, so a range cannot differ between the two.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { optionsOfVerb, WORKER_OPTIONS, WORKER_VERBS, workerOptionsHeader, type WorkerOption } from './worker-options.ts';

const HEADER = fileURLToPath(new URL('../../../native/src/worker-options.h', import.meta.url));

describe('one table of worker options', () => {
  it('native/src/worker-options.h is the header generated from the table (run `npm run gen:worker-options` after changing it)', () => {
    assert.equal(readFileSync(HEADER, 'utf8'), workerOptionsHeader());
  });

  it('a range changed in the table alone makes the header stale: the C range follows the TypeScript one or the test fails', () => {
    const drifted: WorkerOption[] = WORKER_OPTIONS.map((o) => (o.name === 'duration' ? { ...o, min: 0.05 } : o));
    assert.notEqual(workerOptionsHeader(drifted), readFileSync(HEADER, 'utf8'));
    assert.match(workerOptionsHeader(drifted), /X\(duration, "--duration", "SECONDS", OPT_NUMBER, 0\.05, 3600\.0,/);
  });

  it('names and C fields are unique, ranges ordered, defaults within them', () => {
    assert.equal(new Set(WORKER_OPTIONS.map((o) => o.name)).size, WORKER_OPTIONS.length);
    assert.equal(new Set(WORKER_OPTIONS.map((o) => o.field)).size, WORKER_OPTIONS.length);
    for (const o of WORKER_OPTIONS) {
      assert.ok(o.min <= o.max, o.name);
      assert.ok(o.verbs.length > 0, `${o.name} is taken by some verb`);
      if (o.default !== null && ['bytes', 'number', 'count'].includes(o.kind))
        assert.ok(o.default >= o.min && o.default <= o.max, `${o.name}: default ${o.default} within ${o.min}..${o.max}`);
    }
  });

  it('each verb takes --target; hold takes no workload option and no --readers', () => {
    for (const v of WORKER_VERBS)
      assert.ok(
        optionsOfVerb(v.name).some((o) => o.name === 'target'),
        v.name,
      );
    const hold = optionsOfVerb('hold').map((o) => o.name);
    assert.deepEqual(hold, ['target', 'size', 'fd', 'helper', 'socket']);
  });
});
