// The CLI and the app are one application layer over the library: the same filter gives the
// same runs through `diskdelta list` and through the app's `library.list` procedure.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../cli/run-cli-in-process.ts';
import { syntheticRun } from '../store/fixtures/synthetic-run.ts';
import { openLibrary } from '../store/library.ts';
import { invoke } from './dispatch.ts';
import { createHandlers } from './handlers.ts';

test('diskdelta list and library.list answer every filter alike, from SQL', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'dd-libsvc-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const dbPath = join(dir, 'library.sqlite');
  const library = openLibrary({ dbPath });
  t.after(() => library.close());
  const runs = [1, 2, 3, 4].map((n) => syntheticRun(n));
  runs[0]!.target.path = '/mnt/vda-home';
  runs[1]!.label = 'HDD before';
  runs[2]!.createdAt = '2011-06-01T10:00:00.000Z';
  runs[3]!.source = 'reference';
  for (const run of runs) library.saveRun(run);
  const handlers = createHandlers({ library, formats: null, system: null, runs: null, missing: {} });

  const filters: Array<[Record<string, unknown>, string[]]> = [
    [{}, []],
    [{ device: 'vda' }, ['--device', 'vda']],
    [{ device: 'sata ssd' }, ['--device', 'sata ssd']],
    [{ label: 'hdd' }, ['--label', 'hdd']],
    [{ since: '2026-01-01' }, ['--since', '2026-01-01']],
    [{ source: 'reference' }, ['--source', 'reference']],
    [{ limit: 2 }, ['--limit', '2']],
    [{ kind: 'disk' }, ['--kind', 'disk']],
    [{ kind: ['working-set', 'discard-cost'] }, ['--kind', 'working-set,discard-cost']],
  ];
  for (const [filter, flags] of filters) {
    const app = await invoke(handlers, 'library.list', filter);
    assert.ok(app.ok, JSON.stringify(app));
    const cli = await runCli(['list', '--json', '--db', dbPath, ...flags]);
    assert.equal(cli.code, 0, cli.stderr);
    assert.deepEqual(JSON.parse(cli.stdout), app.data, `filter ${JSON.stringify(filter)}`);
  }
  const byPath = await invoke(handlers, 'library.list', { device: 'vda' });
  assert.ok(
    byPath.ok && (byPath.data as Array<{ targetPath: string }>).map((s) => s.targetPath).join() === '/mnt/vda-home',
    'device matches the target path too',
  );
  const until = await invoke(handlers, 'library.list', { until: '2012-01-01T00:00:00.000Z' });
  assert.ok(until.ok && (until.data as unknown[]).length === 1, 'until filters in SQL');
});
