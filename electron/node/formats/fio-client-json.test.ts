// fio client-mode JSON (`fio --client=… --output-format=json`, issue #26 item 2): one run per
// host and job, never fio's "All clients" sum as a measurement. Two fixtures: a real run made
// here by fio 3.33 against two servers on 127.0.0.2 and 127.0.0.3, and one written in the shape
// fio 3.39+ writes (per-host global options, commit 6f771553) for three hosts reached through
// SSH port forwards (all "localhost", told apart by port). Numbers are checked against the
// document, read with plain JSON.parse.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { ImportError, parseImport } from './index.ts';

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');
const NOW = new Date('2026-12-01T12:00:00.000Z');

type Entry = { jobname: string; hostname: string; port: number; read: { bw_bytes: number; iops: number } };
function documentOf(text: string): { client_stats: Entry[] } {
  return JSON.parse(text.slice(text.search(/^\{/m))) as { client_stats: Entry[] };
}

describe('fio client-mode JSON', () => {
  it('imports fio 3.33 --client output of two hosts as one run per host, each with its own jobs', () => {
    const text = fixture('fio-3.33-client-2-hosts.json');
    const doc = documentOf(text);
    const runs = parseImport(text, 'client.json', { now: NOW });
    assert.deepEqual(
      runs.map((r) => r.sourceMeta['fio.host']),
      ['127.0.0.2:8765', '127.0.0.3:8765'],
    );
    for (const run of runs) {
      assert.deepEqual(
        run.results.map((r) => r.test),
        ['seq1m-q8t1-read', 'rnd4k-q32t1-read'],
      );
      for (const result of run.results) {
        const entry = doc.client_stats.find(
          (e) => `${e.hostname}:${e.port}` === run.sourceMeta['fio.host'] && e.jobname === result.test,
        ) as Entry;
        assert.equal(result.bytesPerSec, entry.read.bw_bytes);
        assert.equal(result.iops, entry.read.iops);
      }
      // The device fio reported for that host (disk_util), part of the host's identity.
      assert.equal(run.sourceMeta['fio.disk'], 'vda');
      assert.match(run.label, /^127\.0\.0\.[23]:8765 · fio /);
    }
  });

  it('never keeps the "All clients" sum, which fio tags with the last host that reported', () => {
    const text = fixture('fio-3.33-client-2-hosts.json');
    const all = documentOf(text).client_stats.find((e) => e.jobname === 'All clients') as Entry;
    const runs = parseImport(text, 'client.json', { now: NOW });
    const figures = runs.flatMap((r) => r.results.map((x) => x.bytesPerSec));
    assert.ok(!figures.includes(all.read.bw_bytes));
    assert.ok(runs.every((r) => r.results.every((x) => !/all clients/i.test(x.test))));
    assert.match(runs[0]?.sourceMeta['fio.aggregate'] ?? '', /"All clients" .* left out/);
  });

  it('keeps fio 3.33 global options only where every host agrees: the file mixes all hosts into one object', () => {
    const runs = parseImport(fixture('fio-3.33-client-2-hosts.json'), 'client.json', { now: NOW });
    for (const run of runs) {
      assert.equal(run.sourceMeta['global.size'], '16m');
      assert.equal(run.settings.sizeBytes, 16 * 1024 * 1024);
      // directory differs per host (/tmp/h26/d2, /tmp/h26/d3): which is whose is not in the file.
      assert.equal(run.target.path, '');
      assert.match(run.sourceMeta['global.directory'] ?? '', /differs between hosts.*\/tmp\/h26\/d2.*\/tmp\/h26\/d3/);
    }
  });

  it('imports the fio 3.39 shape: hosts behind SSH forwards told apart by port, each with its own global options', () => {
    const text = fixture('fio-3.39-client-ssh-forwards.json');
    const doc = documentOf(text);
    const runs = parseImport(text, 'fleet.json', { now: NOW });
    assert.deepEqual(
      runs.map((r) => r.sourceMeta['fio.host']),
      ['localhost:8765', 'localhost:8766', 'localhost:8767'],
    );
    assert.deepEqual(
      runs.map((r) => r.sourceMeta['fio.disk']),
      ['nvme0n1', 'sda', 'sda'],
    );
    for (const run of runs) {
      assert.equal(run.results.length, 2);
      assert.equal(run.target.path, '/var/tmp/diskdelta-fleet');
      assert.equal(run.engine.version, 'fio-3.39');
    }
    const hdd = runs[2]?.results.find((r) => r.test === 'seq1m-q8t1-read');
    const want = doc.client_stats.find((e) => e.port === 8767 && e.jobname === 'seq1m-q8t1-read') as Entry;
    assert.equal(hdd?.bytesPerSec, want.read.bw_bytes);
    assert.equal(runs.flatMap((r) => r.results).length, 6);
  });

  it('refuses entries without a hostname, saying why, rather than summing two hosts as clones of one job', () => {
    const doc = documentOf(fixture('fio-3.33-client-2-hosts.json')) as unknown as { client_stats: Array<Record<string, unknown>> };
    for (const e of doc.client_stats) delete e.hostname;
    assert.throws(
      () => parseImport(JSON.stringify(doc, null, 2), 'old.json', { now: NOW }),
      (e: unknown) => e instanceof ImportError && /no "hostname"/.test(e.message) && /which host/.test(e.message),
    );
  });
});
