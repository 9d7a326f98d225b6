// Truncated, corrupted, oversized, binary, deeply nested and mistyped input: parseImport
// either returns complete, sane runs or throws an ImportError naming the file, never any
// other exception and never a partial result. Property-based with fast-check.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import type { RunRecord } from '../../shared/model/results.ts';
import { decodeImportBytes, detectFormat, exportJson, ImportError, MAX_IMPORT_BYTES, parseImport, readImportFile } from './index.ts';

const dir = new URL('./fixtures/', import.meta.url);
const NOW = new Date('2026-11-29T12:00:00.000Z');
// Files made here and files other people published (fixtures/foreign/).
const fixtures = (readdirSync(dir, { recursive: true }) as string[])
  .filter((f) => /\.(json|txt|csv)$/.test(f))
  .map((name) => ({ name, text: readFileSync(new URL(name, dir), 'utf8') }));
// A DiskDelta export too, so the JSON schema path is fuzzed as well.
fixtures.push({ name: 'export.json', text: exportJson(parseImport(fixtures[0]!.text, fixtures[0]!.name, { now: NOW })) });

const sane = (v: number | null | undefined) => v === null || v === undefined || (Number.isFinite(v) && v >= 0);

function assertSaneRuns(runs: RunRecord[]): void {
  assert.ok(runs.length > 0);
  for (const run of runs) {
    assert.ok(run.results.length + run.extras.length > 0);
    assert.ok(run.source === 'imported');
    for (const r of run.results) {
      for (const v of [r.bytesPerSec, r.iops, r.cv, ...Object.values(r.latencyNs ?? {})]) assert.ok(sane(v), `${r.test}: ${v}`);
    }
  }
}

/** The contract: runs, or an ImportError about this file. Anything else fails the property. */
function importOrError(text: string, name: string): RunRecord[] | ImportError {
  try {
    const runs = parseImport(text, name, { now: NOW });
    assertSaneRuns(runs);
    return runs;
  } catch (error) {
    if (error instanceof ImportError) {
      assert.equal(error.file, name);
      assert.ok(error.message.startsWith(name), error.message);
      return error;
    }
    throw error;
  }
}

describe('hostile input', () => {
  it('any truncation of any fixture: complete runs or ImportError', () => {
    fc.assert(
      fc.property(fc.constantFrom(...fixtures), fc.double({ min: 0, max: 1, noNaN: true }), ({ name, text }, where) => {
        importOrError(text.slice(0, Math.floor(text.length * where)), name);
      }),
      { numRuns: 300 },
    );
  });

  it('a JSON document cut anywhere inside is always an error with a line', () => {
    const json = fixtures.filter((f) => f.name.endsWith('.json') && f.text.trimStart().startsWith('{'));
    assert.ok(json.length >= 3);
    fc.assert(
      fc.property(fc.constantFrom(...json), fc.double({ min: 0, max: 1, noNaN: true }), ({ name, text }, where) => {
        const end = text.trimEnd().length - 1; // the closing brace
        const cut = text.slice(0, Math.floor(end * where));
        const result = importOrError(cut, name);
        assert.ok(result instanceof ImportError, `cut at ${cut.length} of ${text.length} gave runs`);
        if (cut.trim() !== '' && detectFormat(cut) !== null) assert.notEqual(result.line, null);
      }),
      { numRuns: 200 },
    );
  });

  it('a text report cut before its Date line is always refused (never a partial run)', () => {
    const reports = fixtures.filter((f) => /kdiskmark|crystaldiskmark/.test(f.name));
    assert.ok(reports.length >= 3);
    fc.assert(
      fc.property(fc.constantFrom(...reports), fc.double({ min: 0, max: 1, noNaN: true }), ({ name, text }, where) => {
        const date = /Date\s*:[^\r\n]*/.exec(text) as RegExpExecArray; // "Date:" or "Date :" (CrystalDiskMark 3–6)
        const lastDigit = date.index + date[0].trimEnd().length - 1;
        const cut = text.slice(0, Math.floor(lastDigit * where)); // up to the date's last digit, excluded
        assert.ok(importOrError(cut, name) instanceof ImportError, `cut at ${cut.length}`);
      }),
      { numRuns: 200 },
    );
  });

  it('a bonnie++ file cut inside any row is always refused', () => {
    const csvs = fixtures.filter((f) => f.name.endsWith('.csv'));
    // Every offset strictly inside a data row (not at a line start or end, not in a header).
    const cuts = csvs.flatMap(({ name, text }) => {
      const out: Array<{ name: string; cut: string }> = [];
      let start = 0;
      for (const line of text.split('\n')) {
        if (!line.startsWith('format_version,')) {
          for (let k = 1; k < line.length; k++) out.push({ name, cut: text.slice(0, start + k) });
        }
        start += line.length + 1;
      }
      return out;
    });
    assert.ok(cuts.length > 500);
    fc.assert(
      fc.property(fc.constantFrom(...cuts), ({ name, cut }) => {
        assert.ok(importOrError(cut, name) instanceof ImportError, `cut after ${JSON.stringify(cut.slice(-20))}`);
      }),
      { numRuns: 300 },
    );
  });

  it('random byte corruption: complete runs or ImportError', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...fixtures),
        fc.array(fc.tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 8 }),
        ({ name, text }, edits) => {
          const bytes = Buffer.from(text, 'utf8');
          for (const [where, byte] of edits) bytes[Math.min(bytes.length - 1, Math.floor(where * bytes.length))] = byte;
          let decoded: string;
          try {
            decoded = decodeImportBytes(bytes, name);
          } catch (error) {
            assert.ok(error instanceof ImportError, String(error));
            return;
          }
          importOrError(decoded, name);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('random JSON values and random text are refused cleanly', () => {
    fc.assert(
      fc.property(fc.json({ maxDepth: 6 }), (json) => {
        importOrError(json, 'random.json');
      }),
      { numRuns: 200 },
    );
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 400 }), (text) => {
        const result = importOrError(text, 'random.txt');
        assert.ok(result instanceof ImportError);
      }),
      { numRuns: 200 },
    );
  });

  it('lookalike documents with random values in the known fields are refused or sane', () => {
    const value = fc.oneof(
      fc.double(),
      fc.string(),
      fc.constant(null),
      fc.boolean(),
      fc.array(fc.integer(), { maxLength: 3 }),
      fc.object({ maxDepth: 2 }),
    );
    fc.assert(
      fc.property(value, value, value, (bw, iops, mean) => {
        const fio = {
          'fio version': 'fio-3.33',
          jobs: [{ jobname: 'j', 'job options': { rw: 'read' }, read: { bw_bytes: bw, iops, clat_ns: { mean } } }],
        };
        importOrError(JSON.stringify(fio), 'fio.json');
        const dd = JSON.parse(fixtures.find((f) => f.name === 'export.json')!.text);
        dd.runs[0].results[0].bytesPerSec = bw;
        dd.runs[0].results[0].latencyNs = mean;
        importOrError(JSON.stringify(dd, null, 2), 'dd.json');
      }),
      { numRuns: 300 },
    );
  });

  it('deeply nested JSON is refused with the line where it goes too deep', () => {
    const deep = `{"format": "diskdelta-results",\n"version": 1,\n"runs": ${'['.repeat(200_000)}${']'.repeat(200_000)}}`;
    assert.throws(
      () => parseImport(deep, 'deep.json'),
      (e: unknown) => e instanceof ImportError && e.line === 3 && /nested deeper/.test(e.message),
    );
    const fio = `note: x\n{\n"fio version": "fio-3.33",\n"jobs": [{"jobname": "j", "read": ${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}}]}`;
    assert.throws(
      () => parseImport(fio, 'deep-fio.json'),
      (e: unknown) => e instanceof ImportError && e.line === 4,
    );
  });

  it('binary files are refused with the line of the first bad byte', () => {
    const bytes = Buffer.from('1.98,2.00a,host\nsecond line\nthird \u0000 line\n', 'utf8');
    assert.throws(
      () => decodeImportBytes(bytes, 'bin.csv'),
      (e: unknown) => e instanceof ImportError && e.line === 3,
    );
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
    assert.throws(
      () => decodeImportBytes(png, 'image.png'),
      (e: unknown) => e instanceof ImportError && /not valid|binary/.test(e.message),
    );
    assert.throws(() => parseImport('{"fio version": "x"\u0000}', 'nul.json'), ImportError);
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 2000 }), (data) => {
        try {
          importOrError(decodeImportBytes(data, 'blob'), 'blob');
        } catch (error) {
          assert.ok(error instanceof ImportError);
        }
      }),
      { numRuns: 200 },
    );
  });

  it(`files over ${MAX_IMPORT_BYTES / 1024 / 1024} MiB are refused before they are read`, async () => {
    const tmp = mkdtempSync(join(tmpdir(), 'diskdelta-formats-'));
    try {
      const path = join(tmp, 'huge.json');
      writeFileSync(path, '');
      truncateSync(path, MAX_IMPORT_BYTES + 1); // sparse: no disk space used, no bytes read
      await assert.rejects(
        readImportFile(path),
        (e: unknown) => e instanceof ImportError && e.file === 'huge.json' && /limited to 50 MiB/.test(e.message),
      );
      const ok = join(tmp, 'CDM.txt');
      writeFileSync(ok, fixtures.find((f) => f.name === 'crystaldiskmark-8.txt')!.text);
      const read = await readImportFile(ok);
      assert.equal(read.fileName, 'CDM.txt');
      assert.equal(parseImport(read.text, read.fileName)[0]?.sourceFormat, 'crystaldiskmark');
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
    assert.throws(
      () => parseImport(' '.repeat(MAX_IMPORT_BYTES + 1), 'big.txt'),
      (e: unknown) => e instanceof ImportError && /limit/.test(e.message),
    );
  });

  it('unknown formats say what is expected', () => {
    assert.throws(
      () => parseImport('hello,world\n1,2\n', 'x.csv'),
      (e: unknown) => e instanceof ImportError && e.line === null && /expected bonnie\+\+ CSV .*, fio JSON/.test(e.message),
    );
    assert.equal(detectFormat(''), null);
    assert.equal(detectFormat(readFileSync(new URL('fio-jobs.fio', dir), 'utf8')), null);
  });
});
