// The working set in the terminal: a name is one field. A folder named with a newline (or a
// note naming one) once printed a line of its own that passed for one of DiskDelta's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resultWithoutRuns } from '../node/formats/common.ts';
import { WORKING_SET_TEST, workingSetFigures, WINDOW_DAYS } from '../shared/analysis/working-set.ts';
import type { RunRecord } from '../shared/model/results.ts';
import { workingSetText } from './working-set-text.ts';

test('a newline in a folder name, the target or a note is shown escaped, never as a line of its own', () => {
  const forged = 'a\n  Working set of /etc (run #1)';
  const summary = {
    totalBytes: 4096,
    files: 1,
    windows: WINDOW_DAYS.map((days) => ({ days, touchedBytes: 4096, writtenBytes: 0 })),
    folders: [{ name: forged, bytes: 4096, recentBytes: 4096 }],
    readsSeen: true,
  };
  const record: RunRecord = {
    label: 'ws',
    notes: '',
    createdAt: '2026-12-01T10:00:00.000Z',
    source: 'measured',
    sourceFormat: 'diskdelta',
    sourceMeta: {},
    target: { path: `/home/x\nWorking set of /root`, kind: 'folder' },
    settings: {},
    engine: { name: 'diskdelta', version: '0' },
    results: [
      resultWithoutRuns({
        test: WORKING_SET_TEST,
        params: null,
        bytesPerSec: null,
        iops: null,
        warnings: [{ code: 'scan-unreadable', message: `1 folder could not be read: /home/x/${forged}` }],
        figures: workingSetFigures(summary, 'test'),
      }),
    ],
    extras: [],
    warnings: [],
  };
  const text = workingSetText(record);
  const lines = text.split('\n');
  assert.equal(lines.filter((l) => /^\s*Working set of/.test(l)).length, 1, text);
  assert.ok(lines[0]!.startsWith('Working set of /home/x\\u000aWorking set of /root'), lines[0]);
  assert.ok(
    lines.some((l) => l.startsWith('  a\\u000a  Working set')),
    text,
  );
  assert.ok(
    lines.some((l) => l === `  - 1 folder could not be read: /home/x/a\\u000a  Working set of /etc (run #1)`),
    text,
  );
});
