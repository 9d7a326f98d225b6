// The app's spec-sheet form refuses what `diskdelta forecast` refuses, with the CLI's own words.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { candidateProblems, EXAMPLE_CANDIDATE } from '../../../electron/shared/model/candidate.ts';
import { checkDraft, EMPTY_DRAFT, EXAMPLE_DRAFT, specOfDraft } from './candidate-form.ts';

test('the example filled in is the example spec sheet', () => {
  const checked = checkDraft(EXAMPLE_DRAFT);
  assert.ok(checked.ok);
  assert.deepEqual(checked.spec, EXAMPLE_CANDIDATE);
});

test('a refused draft gives the CLI validator its exact lines, and marks the fields they name', () => {
  const cases: Array<[Record<string, string>, string, RegExp]> = [
    [{ 'sequentialMBps.write': '' }, 'sequentialMBps.write', /^sequentialMBps\.write: missing$/],
    [{ enduranceTBW: '-5' }, 'enduranceTBW', /^enduranceTBW: must be above 0/],
    [{ 'sequentialMBps.read': '100' }, 'sequentialMBps.read', /^sequentialMBps\.read: is slower than 4K random read/],
    [{ 'fastCache.sizeGB': '4000' }, 'fastCache.sizeGB', /^fastCache\.sizeGB: is larger than the drive/],
    [{ capacityGB: 'lots' }, 'capacityGB', /^capacityGB: must be a number of GB$/],
  ];
  for (const [edit, field, message] of cases) {
    const draft = { ...EXAMPLE_DRAFT, ...edit };
    const checked = checkDraft(draft);
    assert.ok(!checked.ok, field);
    assert.deepEqual(checked.problems, candidateProblems(specOfDraft(draft)));
    assert.ok(
      checked.problems.some((p) => message.test(p)),
      `${field}: ${checked.problems.join(' | ')}`,
    );
    assert.deepEqual([...checked.fields], [field]);
  }
  const empty = checkDraft(EMPTY_DRAFT);
  assert.ok(!empty.ok);
  assert.ok(empty.fields.has('name') && empty.fields.has('random4kIops.qd32.write') && empty.fields.has('enduranceTBW'));
});
