// The run settings are one table (shared/model/run-settings.ts) over the worker's options
// (shared/model/worker-options.ts): a setting added to the tables alone is in the spec's schema,
// the CLI's flags and --help, the New run form, the rate kind's plan and the worker's argv, and
// in the C header the worker's parser is generated from. Ranges are the worker option's.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { benchSpecSchemaFor } from '../shared/model/spec.ts';
import { PRESETS } from '../shared/catalog/presets.ts';
import { kindOfTest } from '../shared/model/catalog.ts';
import { runArgv, type WorkerPlan } from '../node/bench/worker-argv.ts';
import { presetProblems, resolveSettings, RUN_SETTINGS, settingRange, type RunSettingDef } from '../shared/model/run-settings.ts';
import { WORKER_OPTIONS, workerOption, workerOptionsHeader, type WorkerOption } from '../shared/model/worker-options.ts';
import { buildSpec, formFields, presetDefaults } from '../../renderer/src/view/new-run-form.ts';
import { runFlags, runHelp, specFromFlags } from './commands/run.ts';
import { parseFlags } from './args.ts';
import { runCli } from './run-cli-in-process.ts';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const OPTION: WorkerOption = {
  name: 'queue-hint',
  field: 'queue_hint',
  arg: 'N',
  kind: 'count',
  min: 1,
  max: 9,
  default: 2,
  verbs: ['run'],
  help: 'a throwaway option',
};
const SETTING: RunSettingDef = {
  key: 'queueHint',
  label: 'Queue hint',
  help: 'a throwaway setting, in the tables only',
  unit: 'count',
  integer: true,
  worker: 'queue-hint',
  default: 2,
  kinds: ['rate'],
  flag: 'queue-hint',
  arg: 'N',
  form: { label: 'Queue hint' },
};
const settings = [...RUN_SETTINGS, SETTING];
const options = [...WORKER_OPTIONS, OPTION];

describe('a throwaway run setting, added through the tables alone', () => {
  test('the spec schema takes it in its range and refuses it outside', () => {
    const schema = benchSpecSchemaFor(settings, options);
    assert.equal(schema.safeParse({ target: '/mnt', queueHint: 4 }).success, true);
    assert.equal(schema.safeParse({ target: '/mnt', queueHint: 10 }).success, false);
    assert.equal(benchSpecSchemaFor(RUN_SETTINGS).safeParse({ target: '/mnt', queueHint: 4 }).success, false, 'not without it');
  });

  test('the CLI: a flag, its --help line, parsed into the spec, out of range refused naming the flag', () => {
    assert.match(runHelp(settings), /^ {2}--queue-hint N +a throwaway setting, in the tables only$/m);
    assert.doesNotMatch(runHelp(), /queue-hint/);
    const { values } = parseFlags(['--target', '/mnt', '--queue-hint', '3'], runFlags(settings));
    assert.deepEqual(specFromFlags(values, settings, options), { target: '/mnt', queueHint: 3 });
    assert.throws(
      () => specFromFlags({ target: '/mnt', 'queue-hint': '12' }, settings, options),
      /--queue-hint '12' is out of range: use 1 to 9/,
    );
  });

  test('the New run form: a field with the table default as placeholder, checked and passed on', () => {
    assert.ok(formFields(settings).some((f) => f.key === 'queueHint' && f.label === 'Queue hint'));
    assert.equal(presetDefaults('quick', settings).queueHint, '2');
    const form = { target: '/mnt', preset: 'quick' as const, fields: { queueHint: '5' }, label: '' };
    assert.deepEqual(buildSpec(form, settings, options), { target: '/mnt', preset: 'quick', queueHint: 5 });
    assert.match(
      String(buildSpec({ ...form, fields: { queueHint: '0' } }, settings, options)),
      /^Queue hint: a whole number of at least 1 and at most 9/,
    );
  });

  test("the rate kind's plan resolves it (spec, else preset, else default) and the worker's argv carries it, as the C table does", () => {
    assert.equal(resolveSettings('rate', { queueHint: 7 }, { ...PRESETS.quick }, settings).queueHint, 7);
    assert.equal(resolveSettings('rate', {}, { ...PRESETS.quick }, settings).queueHint, 2);
    const plan = { ...basePlan, queueHint: 7 } as WorkerPlan;
    const argv = runArgv(plan, { settings, options });
    assert.equal(argv[argv.indexOf('--queue-hint') + 1], '7');
    assert.ok(!runArgv(basePlan).includes('--queue-hint'));
    assert.match(workerOptionsHeader(options), /X\(queue_hint, "--queue-hint", "N", OPT_COUNT, 1\.0, 9\.0, 2\.0, 1, VERB_BIT\(VERB_RUN\),/);
    // An option the verb does not take is refused on this side too, as the worker would (exit 2).
    const elsewhere = [...WORKER_OPTIONS, { ...OPTION, verbs: ['hold' as const] }];
    assert.throws(() => runArgv(plan, { settings, options: elsewhere }), /--queue-hint is not an option of the worker's run verb/);
  });
});

const basePlan: WorkerPlan = {
  target: '/mnt',
  tests: ['seq1m-q8t1-read'],
  sizeBytes: 64 * 2 ** 20,
  durationSec: 1,
  warmupSec: 0,
  runs: 1,
  precision: 0,
  maxTimeSec: 1.2,
  buffered: false,
  sampleMs: 100,
  pauseSec: 0,
  readOnly: false,
  statistic: 'median',
};

describe('the run settings and the worker: one list of ranges', () => {
  test("a setting the worker takes has the worker option's range, or a narrower one that says why and lies within", () => {
    for (const d of RUN_SETTINGS as readonly RunSettingDef[]) {
      if (!d.worker) continue;
      const option = workerOption(d.worker);
      assert.ok(option, `${d.key}: the worker has --${d.worker}`);
      const range = settingRange(d);
      if (d.narrower === undefined) assert.deepEqual(range, { min: option.min, max: option.max }, `${d.key} is --${d.worker}'s range`);
      else assert.ok(range.min >= option.min && range.max <= option.max, `${d.key}: ${d.narrower}`);
    }
  });

  test('durationSec is 0.2..3600, the same on both sides (it was 0.05 in C)', () => {
    assert.deepEqual(settingRange(RUN_SETTINGS[1]), { min: 0.2, max: 3600 });
    assert.deepEqual([workerOption('duration')!.min, workerOption('duration')!.max], [0.2, 3600]);
  });

  test("every preset's values lie in the ranges of the settings its tests' kinds take", () => {
    for (const preset of Object.values(PRESETS)) {
      const kinds = [...new Set(preset.tests.map((t) => kindOfTest(t)!))];
      assert.deepEqual(presetProblems(preset as unknown as Record<string, unknown>, kinds), [], preset.name);
    }
    assert.deepEqual(presetProblems({ durationSec: 0.05 }, ['rate']), ['durationSec 0.05: use 0.2 s to 3600 s']);
  });
});

describe('a setting whose 0 means "none" (#38 item 12: --rated-endurance 1B was a drive rated for one byte)', () => {
  const spec = (flags: Record<string, string>) => specFromFlags({ target: '/tmp', tests: 'sustained-write', ...flags });
  test('a rated endurance under 1 TB is refused with the range a drive is rated in; 0 is "not known"', () => {
    for (const bad of ['1B', '1', '999GB', '0.5TB'])
      assert.throws(
        () => spec({ 'rated-endurance': bad }),
        new RegExp(`--rated-endurance '${bad.replace('.', '\\.')}' is too small: use 1 TB to 100 PB, or 0 \\(not known\\)`),
      );
    assert.throws(() => spec({ 'rated-endurance': '101PB' }), /too large: use at most 100 PB/);
    assert.equal(spec({ 'rated-endurance': '600TB' }).ratedEnduranceBytes, 600e12);
    assert.equal(spec({ 'rated-endurance': '1TB' }).ratedEnduranceBytes, 1e12);
    assert.equal(spec({ 'rated-endurance': '0' }).ratedEnduranceBytes, 0);
  });
  test('a recovery stream of a few bytes is refused; 0 is no recovery stream', () => {
    assert.throws(
      () => spec({ 'sustained-recovery': '1B' }),
      /--sustained-recovery '1B' is too small: use 16 MiB to 1 PiB, or 0 \(no recovery stream\)/,
    );
    assert.equal(spec({ 'sustained-recovery': '0' }).sustainedRecoveryBytes, 0);
    assert.equal(spec({ 'sustained-recovery': '4GiB' }).sustainedRecoveryBytes, 4 * 2 ** 30);
  });
  test('the API refuses the same values (browser mode, the app), and the New run form says the range', () => {
    const schema = benchSpecSchemaFor(RUN_SETTINGS);
    const parsed = (extra: object) => schema.safeParse({ target: '/tmp', tests: ['sustained-write'], ...extra });
    assert.equal(parsed({ ratedEnduranceBytes: 1 }).success, false);
    assert.match(parsed({ ratedEnduranceBytes: 1 }).error?.issues[0]?.message ?? '', /use 1 TB to 100 PB, or 0 \(not known\)/);
    assert.equal(parsed({ ratedEnduranceBytes: 0 }).success, true);
    assert.equal(parsed({ ratedEnduranceBytes: 600e12 }).success, true);
    assert.equal(parsed({ sustainedRecoveryBytes: 1 }).success, false);
    const form = buildSpec({ target: '/mnt/ssd', preset: 'sustained', label: '', fields: { ratedEnduranceBytes: '0.001' } });
    assert.match(JSON.stringify(form), /Rated endurance \(TB\): a number of at least 1 and at most 100000, or 0 \(not known\)\./);
  });
});

test('the same class in other commands: fleet run --size 1B and working-set --ssd 1B are refused (exit 2) with the range', async () => {
  const fleet = await runCli(['fleet', 'run', '--hosts', '/nonexistent-dd-hosts', '--folder', '/var/tmp', '--size', '1B']);
  assert.equal(fleet.code, 2, fleet.stderr);
  assert.match(fleet.stderr, /--size '1B' is too small: use 16 MiB to 1 PiB/);
  const duration = await runCli(['fleet', 'run', '--hosts', '/nonexistent-dd-hosts', '--folder', '/var/tmp', '--duration', '0.01']);
  assert.equal(duration.code, 2, duration.stderr);
  assert.match(duration.stderr, /--duration '0\.01' is out of range: use 0\.2 s to 3600 s/);
  const ssd = await runCli(['working-set', '/nonexistent-dd', '--ssd', '1B', '--no-save']);
  assert.equal(ssd.code, 2, ssd.stderr);
  assert.match(ssd.stderr, /--ssd '1B' is too small for an SSD: give its size, 1GB to 1PiB/);
});

describe("a kind's settings: the table's `kinds` alone", () => {
  const bench = fileURLToPath(new URL('../node/bench/', import.meta.url));
  const files = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() && e.name !== 'fixtures'
        ? files(join(dir, e.name))
        : e.isFile() && /(?<!\.test)\.ts$/.test(e.name)
          ? [join(dir, e.name)]
          : [],
    );
  // Two setting keys in a row of a list or a union ('sizeBytes', 'runs' or 'runs' | 'precision'):
  // a kind's keys written out again, which drift from the table (the rate kind's were in three places).
  const key = `'(?:${RUN_SETTINGS.map((d) => d.key).join('|')})'`;
  const listed = new RegExp(`${key}\\s*[,|]\\s*${key}`);

  test('no measuring module lists setting keys of a kind by hand: its plan type, schema and resolved values come from the table', () => {
    const lists = files(bench).filter((path) => listed.test(readFileSync(path, 'utf8')));
    assert.deepEqual(lists, [], 'derive them: KindSettingValues<kind>, planSettingsShape(kind), resolveSettings(kind, …)');
  });
});
