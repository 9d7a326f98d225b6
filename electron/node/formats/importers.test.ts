// The importers are one table (IMPORTERS: detect + parse per format of model/source-formats.ts):
// every format of the list is recognised and read by its row, and a file none recognises is
// refused with every format the table reads named, in the list's words.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { formatText, SOURCE_FORMATS, type SourceFormat } from '../../shared/model/source-formats.ts';
import { detectFormat, ImportError, IMPORTERS, parseImport } from './index.ts';

const NOW = new Date('2026-11-29T12:00:00.000Z');
const read = (path: string) => readFileSync(new URL(path, import.meta.url), 'utf8');

// One real file per format (a format added to the list fails the type check here until it has one).
const SAMPLES: Record<SourceFormat, string> = {
  'bonnie++': './fixtures/bonnie-2.00a-throttled-loop.csv',
  fio: './fixtures/fio-3.33-json.json',
  kdiskmark: './fixtures/kdiskmark-3.x.txt',
  crystaldiskmark: './fixtures/crystaldiskmark-8.txt',
  diskdelta: '../../../assets/reference/2013-intel-525-discard.json',
};

test('every format of the list has its row in the importers table, which recognises and reads its file', () => {
  assert.deepEqual(Object.keys(IMPORTERS).sort(), [...SOURCE_FORMATS].sort());
  for (const format of SOURCE_FORMATS) {
    const text = read(SAMPLES[format]);
    assert.equal(detectFormat(text), format, SAMPLES[format]);
    const runs = parseImport(text, SAMPLES[format], { now: NOW });
    assert.ok(runs.length > 0, SAMPLES[format]);
    assert.deepEqual([...new Set(runs.map((r) => r.sourceFormat))], [format], SAMPLES[format]);
  }
});

test('a file no importer recognises is refused naming every format the table reads', () => {
  assert.throws(
    () => parseImport('just some notes\nabout my disk\n', 'notes.txt'),
    (error: unknown) => {
      assert.ok(error instanceof ImportError);
      assert.match(error.message, /^notes\.txt: unrecognised format: expected /);
      for (const format of Object.keys(IMPORTERS) as SourceFormat[]) {
        assert.ok(error.message.includes(formatText(format)), `${format}: ${formatText(format)} is not named in: ${error.message}`);
      }
      return true;
    },
  );
});
