// The docs say what the code does, where a sentence can be checked against it: the README's
// two commands and its order of layers, the pages it points to, and which tests the
// orchestrator names.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { NODE_LAYERS, SHARED_LAYERS } from '../eslint-rules/layers.js';
import { TEST_IDS } from '../electron/shared/model/catalog.ts';
import { RUN_SOURCES } from '../electron/shared/model/figure-terms.ts';
import { foreignToolNames, formatsText } from '../electron/shared/model/source-formats.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const read = (path: string) => readFileSync(`${ROOT}${path}`, 'utf8');
const readme = read('README.md');
/** Prose with its line breaks and indents as single spaces: a sentence may wrap anywhere. */
const flat = (text: string) => text.replace(/\s+/g, ' ');

test('the README starts with the two commands, as .ci/run and npm start expect them', () => {
  assert.ok(
    readme.startsWith(
      '# DiskDelta\n\n```sh\n# 1. Install and start the app (the first start fetches the Electron binary):\nnpm install && npm start\n\n' +
        '# 2. Install and run every test (as root on Debian 12: installs fio, bonnie++, Chromium… with apt-get):\nbash .ci/run\n```\n',
    ),
  );
  assert.ok(readme.split('\n').length <= 200, `the README is ${readme.split('\n').length} lines: move detail to docs/`);
});

test("the README's order of layers in shared/ and node/ is eslint-rules/layers.js's, every layer named", () => {
  const chain = (side: string) => new RegExp(`${side}: ([a-z →\\n]+)`).exec(readme)?.[1]!.replace(/\s+/g, ' ').trim();
  assert.equal(chain('shared'), SHARED_LAYERS.join(' → '));
  assert.equal(chain('node'), NODE_LAYERS.join(' → '));
});

test('every page the README points to exists', () => {
  const pages = [...readme.matchAll(/`((?:docs|e2e|electron)\/[\w/.-]+\.md)`/g)].map((m) => m[1]!);
  assert.ok(pages.length >= 6);
  assert.deepEqual(
    pages.filter((p) => !existsSync(`${ROOT}${p}`)),
    [],
  );
});

test('the README says the checks and the unit tests run at once, then the labs, ASan and Playwright, as scripts/run-tests.ts does', () => {
  const runner = read('scripts/run-tests.ts');
  const atOnce = runner.slice(runner.indexOf('await Promise.all(['), runner.indexOf(']);', runner.indexOf('await Promise.all([')));
  for (const step of ['typecheck()', 'lint()', 'format()', 'nodeTests('])
    assert.ok(atOnce.includes(step), `${step} is not in the first Promise.all`);
  const after = ['const labs = await nodeTests(', 'await sanitized()', 'const e2e = runs('].map((s) => runner.indexOf(s));
  assert.ok(
    after.every((i, k) => i > 0 && (k === 0 || i > after[k - 1]!)),
    `labs, then ASan, then Playwright: ${after.join(', ')}`,
  );
  const order = readme.slice(readme.indexOf('`npm test` runs, in this order'));
  const said = [
    'at once',
    'npm run lint',
    'every unit test as `npm run test:fast` runs them',
    'then every lab test one file at a time',
    'AddressSanitizer',
    'Playwright',
  ].map((s) => order.indexOf(s));
  assert.ok(
    said.every((i, k) => i >= 0 && (k === 0 || i > said[k - 1]!)),
    `the README's order: ${said.join(', ')}`,
  );
});

test('every test the orchestrator names is named in docs/measurement-kinds.md and kinds/kind.ts', () => {
  const code = read('electron/node/bench/orchestrator.ts');
  const named = TEST_IDS.filter((id) => code.includes(`'${id}'`));
  assert.ok(named.length > 0, 'the orchestrator names no test any more: say so in the docs and drop this check');
  for (const doc of ['docs/measurement-kinds.md', 'electron/node/bench/kinds/kind.ts']) {
    for (const id of named) assert.ok(read(doc).includes(`\`${id}\``), `${doc} does not say the orchestrator names ${id}`);
  }
});

test('the formats the README and docs/cli.md say DiskDelta imports are the one list (model/source-formats.ts)', () => {
  assert.ok(
    flat(readme).includes(`imported (${foreignToolNames().join(', ')})`),
    `the README's "imported (…)" should name ${foreignToolNames().join(', ')}`,
  );
  const cli = flat(read('docs/cli.md'));
  const sentence = `\`import\` recognises a file's format from its content: ${formatsText()}.`;
  assert.ok(cli.includes(sentence), `docs/cli.md should say: ${sentence}`);
  assert.ok(
    cli.includes(`[--source ${RUN_SOURCES.join('|')}]`),
    `docs/cli.md's list synopsis should offer --source ${RUN_SOURCES.join('|')}`,
  );
});

test('every test docs/privileged-surfaces.md names exists: a surface is attacked by a test that is really there', () => {
  const page = read('docs/privileged-surfaces.md');
  const rows = page.split('\n').filter((line) => line.startsWith('| ') && !line.startsWith('| surface'));
  assert.ok(rows.length >= 15, `${rows.length} surfaces`);
  const missing: string[] = [];
  let named = 0;
  for (const row of rows) {
    const attack =
      row
        .replace(/\s*\|\s*$/, '')
        .split(' | ')
        .at(-1) ?? '';
    // "`file.test.ts` › a test's name › another name; `other.test.ts` › …": a name up to "…" is its start.
    for (const [, file, names] of attack.matchAll(/`([\w./-]+\.test\.ts)`([^`]*)/g)) {
      const source = existsSync(`${ROOT}${file}`) ? read(file!) : null;
      if (source === null) missing.push(`${file} (no such file)`);
      for (const name of names!.split('›').slice(1)) {
        const start = name
          .split('…')[0]!
          .replace(/[;,.\s]+$/, '')
          .trim()
          .slice(0, 60);
        named++;
        if (source !== null && start && !source.includes(start)) missing.push(`${file} › ${start}`);
      }
    }
  }
  assert.ok(named >= 30, `${named} tests named`);
  assert.deepEqual(missing, []);
});

test('docs/measurement-kinds.md names every kind of the KINDS table, and says how many', async () => {
  const { KINDS } = await import('../electron/node/bench/kinds/index.ts');
  const page = read('docs/measurement-kinds.md');
  const words = ['none', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight'];
  assert.match(page, new RegExp(`holds ${words[KINDS.length]}\\b`), `the page says how many kinds KINDS holds (${KINDS.length})`);
  for (const kind of KINDS) assert.ok(page.includes(`\`${kind.id}\``), `docs/measurement-kinds.md does not name the kind ${kind.id}`);
});

test('the terminal-text modules live in the CLI (electron/cli/), as the README says all terminal text does', () => {
  for (const module of ['cipher-text.ts', 'encryption-text.ts', 'compare-text.ts'])
    assert.ok(existsSync(`${ROOT}electron/cli/${module}`), module);
  assert.ok(readme.includes('`electron/cli/` is the command (and all terminal text)'));
});

/** The TypeScript sources under dir, tests left out; symlinks not followed (the sysfs fixtures loop). */
function sourceFiles(dir: string): string[] {
  return readdirSync(`${ROOT}${dir}`, { withFileTypes: true }).flatMap((e) => {
    const path = `${dir}/${e.name}`;
    if (e.isDirectory()) return e.name === 'fixtures' ? [] : sourceFiles(path);
    return e.isFile() && /\.tsx?$/.test(e.name) && !e.name.includes('.test.') ? [path] : [];
  });
}

test("the page's code makes its number and date formatters once (docs/app.md): no toLocaleString call in renderer/src or electron/shared", () => {
  const calls = [...sourceFiles('renderer/src'), ...sourceFiles('electron/shared')].filter((f) =>
    /\.toLocale(String|DateString|TimeString)\(/.test(read(f)),
  );
  assert.deepEqual(
    calls,
    [],
    'each builds an Intl formatter per call in Chromium: use formatNumber, formatCount, groupedFormat or formatDate',
  );
});

test('no rate or size is printed by hand ("(x / 1e6).toFixed(1) MB/s" has no thousands separator: "2345.6 MB/s"): units.ts formats them', () => {
  const byHand = /\/ (?:1e\d+|2 \*\* \d+)\)\.toFixed\(/;
  const found = [...sourceFiles('renderer/src'), ...sourceFiles('electron')].flatMap((f) =>
    read(f)
      .split('\n')
      .flatMap((line, i) => (byHand.test(line) ? [`${f}:${i + 1}`] : [])),
  );
  assert.deepEqual(found, [], 'use formatThroughput, formatCount or groupedDecimals (electron/shared/analysis/units.ts)');
});

test("docs/cli.md names every preset of catalog/presets.ts, and the sweep's count of block sizes", async () => {
  const { PRESETS, SWEEP_BLOCK_SIZES } = await import('../electron/shared/catalog/presets.ts');
  const { formatBytes } = await import('../electron/shared/analysis/units.ts');
  const cli = flat(read('docs/cli.md'));
  const unnamed = Object.keys(PRESETS).filter((name) => !cli.includes(`\`${name}\``));
  assert.deepEqual(unnamed, [], 'presets docs/cli.md does not name');
  const sweep = `${formatBytes(SWEEP_BLOCK_SIZES[0]!)}, ${formatBytes(SWEEP_BLOCK_SIZES[1]!)} … ${formatBytes(SWEEP_BLOCK_SIZES.at(-1)!)} (${SWEEP_BLOCK_SIZES.length} powers of two)`;
  assert.ok(cli.includes(sweep), `docs/cli.md's sweep row should say: ${sweep}`);
});

test('docs/benchmarks.md lists every bench: and soak: script of package.json, and names no script that is not there', () => {
  const scripts = Object.keys((JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts);
  const page = read('docs/benchmarks.md');
  const listed = [...page.matchAll(/`npm run ([\w:-]+)/g)].map((m) => m[1]!);
  assert.deepEqual(
    scripts.filter((s) => /^(bench|soak):/.test(s) && !listed.includes(s)),
    [],
    'benchmarks docs/benchmarks.md does not list',
  );
  assert.deepEqual(
    listed.filter((s) => !scripts.includes(s)),
    [],
    'npm scripts docs/benchmarks.md names that package.json lacks',
  );
});

test('every file path the README and the docs name in backticks exists (a test id: its .test.ts)', () => {
  const pages = ['README.md', 'e2e/README.md', ...readdirSync(`${ROOT}docs`).map((f) => `docs/${f}`)];
  const missing: string[] = [];
  for (const page of pages) {
    for (const [, path] of read(page).matchAll(/`((?:electron|renderer|scripts|native|e2e|docs|bin|assets)\/[\w./-]+)`/g)) {
      if (!existsSync(`${ROOT}${path}`) && !existsSync(`${ROOT}${path}.test.ts`)) missing.push(`${page}: ${path}`);
    }
  }
  assert.deepEqual(missing, []);
});

test("docs/cli.md's tree workload figures are the shape file's (assets/workloads/linux-6.1.192.tree-shape.json)", async () => {
  const { formatCount } = await import('../electron/shared/analysis/units.ts');
  const shape = JSON.parse(read('assets/workloads/linux-6.1.192.tree-shape.json')) as {
    files: number;
    bytes: number;
    dirs: number;
    depths: unknown[];
  };
  const said = `${formatCount(shape.files)} files, ${formatCount(shape.bytes)} bytes, ${formatCount(shape.dirs)} folders, ${shape.depths.length} levels`;
  assert.ok(flat(read('docs/cli.md')).includes(said), `docs/cli.md should say: ${said}`);
});

// Issue #43: the numbers the prose of these pages gives, each against the constant that makes it
// true (a constant not exported is read from its source, as the worker's C is).
const constant = (path: string, name: string): string => {
  const match = new RegExp(`(?:const|let|#define)\\s+${name}\\b\\s*=?\\s*([^;\\n]+)`).exec(read(path));
  assert.ok(match, `${path} no longer defines ${name}: the page that cites it needs a look`);
  return match[1]!.trim();
};

test("docs/worker.md's limits are the worker's: 64 jobs, the sweep's count, 1 GiB of buffers, 400 day bins", async () => {
  const page = flat(read('docs/worker.md'));
  const { PRESETS } = await import('../electron/shared/catalog/presets.ts');
  assert.equal(constant('native/src/main.c', 'MAX_JOBS'), '64');
  assert.ok(page.includes(`At most 64 \`--job\`s (the sweep is ${PRESETS.sweep.tests.length})`), 'the sweep count');
  assert.equal(constant('native/src/job.h', 'JOB_MAX_BUFFER_BYTES'), '(1ull << 30)');
  assert.ok(page.includes('capped at 1 GiB'));
  assert.equal(constant('native/src/working-set.h', 'WS_DAYS'), '400');
  assert.ok(page.includes('the last of 400 bins'));
});

test('docs/run-settings.md: the --job help it quotes is `diskdelta run --help`, the presets file it names exists', () => {
  const page = read('docs/run-settings.md');
  const quoted = page
    .split('## `diskdelta run --job`')[1]!
    .split('```')[1]!
    .replace(/^\n|\n$/g, '');
  // An empty block would be "included" in any help text.
  assert.ok(quoted.trim().length > 0, 'docs/run-settings.md: the --job block under its heading is empty');
  const help = spawnSync(process.execPath, [`${ROOT}bin/diskdelta.js`, 'run', '--help'], { encoding: 'utf8', timeout: 30_000 });
  assert.ok(help.stdout.includes(quoted), 'the --job block differs from `diskdelta run --help`: paste the new text');
  assert.ok(flat(page).includes('its field in `electron/shared/catalog/presets.ts`'));
});

test('docs/terminal-output-and-signals.md: the signals it lists are bin/signals.js, the stderr tail is 8 lines of 300', async () => {
  const page = flat(read('docs/terminal-output-and-signals.md'));
  const { STOP_SIGNALS } = (await import('../bin/signals.js')) as { STOP_SIGNALS: string[] };
  const listed = `${STOP_SIGNALS.slice(0, -1).join(', ')} and ${STOP_SIGNALS.at(-1)} (\`bin/signals.js\`)`;
  assert.ok(page.includes(listed), `should list: ${listed}`);
  assert.equal(constant('electron/shared/model/stderr-tail.ts', 'MAX_LINES'), '8');
  assert.equal(constant('electron/shared/model/stderr-tail.ts', 'MAX_LINE_CHARS'), '300');
  assert.ok(page.includes('(at most 8, each cut at 300 characters, escaped)'));
});

test("docs/drive-temperature.md's interval, bound, plausible range and thermal thresholds are the code's", async () => {
  const page = flat(read('docs/drive-temperature.md'));
  const { TEMPERATURE_INTERVAL_MS } = await import('../electron/node/bench/temperature-watch.ts');
  const { READ_BOUND_MS } = await import('../electron/node/files/read-bounded.ts');
  const { PLAUSIBLE_C } = await import('../electron/node/system/drive-temperature.ts');
  const { ASSUMED_HOT_C } = await import('../electron/shared/analysis/thermal.ts');
  assert.ok(page.includes(`every ${TEMPERATURE_INTERVAL_MS / 1000} s while the worker measures`));
  assert.ok(page.includes(`killed after ${READ_BOUND_MS / 1000} s`));
  assert.ok(page.includes(`outside −${-PLAUSIBLE_C.min} °C to ${PLAUSIBLE_C.max} °C`));
  assert.ok(page.includes(`or ${ASSUMED_HOT_C} °C when it reports none`));
  const thermal = 'electron/shared/analysis/thermal.ts';
  const fall = Math.round(Number(constant(thermal, 'FALL')) * 100);
  assert.ok(
    page.includes(`fell by ${fall} % or more`) &&
      page.includes(`warmed by ${constant(thermal, 'RISE_C')} °C or more, within ${constant(thermal, 'NEAR_C')} °C of that mark`),
  );
});

test("docs/recorder.md: --merge-ms's default and the helper's record size are the worker's", async () => {
  const page = flat(read('docs/recorder.md'));
  const { WORKER_OPTIONS } = await import('../electron/shared/model/worker-options.ts');
  const merge = WORKER_OPTIONS.find((o) => o.name === 'merge-ms');
  assert.ok(page.includes(`(\`--merge-ms\` of the worker, ${merge?.default} by default)`));
  assert.match(read('native/src/access-feed.h'), /sizeof\(access_feed_record_t\) == 32\b/);
  assert.ok(page.includes('fixed 32-byte records'));
});

test("docs/charts.md's log threshold, report width and least column are chart code's; the README's time limits are the manifest's", async () => {
  const page = flat(read('docs/charts.md'));
  const { AUTO_LOG_SPREAD } = await import('../electron/shared/charts/chart-scale.ts');
  const { REPORT_CHART_WIDTH } = await import('../electron/shared/report/report-chart.ts');
  assert.ok(page.includes(`×${AUTO_LOG_SPREAD} (\`AUTO_LOG_SPREAD\`)`));
  assert.ok(page.includes(`The report draws at ${REPORT_CHART_WIDTH} px`));
  assert.ok(page.includes(`every column is ≥ ${constant('electron/shared/charts/bar-layout.ts', 'MIN_COLUMN_PX')} px wide`));
  const { timeLimitSeconds } = await import('./test-manifest.ts');
  const said = `300 s, 900 s for a lab, 1,800 s for a QEMU guest`;
  assert.ok(flat(readme).includes(said));
  assert.deepEqual(
    [
      timeLimitSeconds('electron/shared/model/display.test.ts'),
      timeLimitSeconds('e2e/fleet-lab.test.ts'),
      timeLimitSeconds('e2e/dm-crypt-lab.test.ts'),
    ],
    [300, 900, 1800],
  );
});

// Issue #43 item 6, the second half of the pages: docs/cli.md, forecast.md, sustained-write.md,
// app.md, benchmarks.md and own-files.md against the code they describe.
const cliHelp = (args: string[]): string => {
  const run = spawnSync(process.execPath, [`${ROOT}bin/diskdelta.js`, ...args, '--help'], { encoding: 'utf8', timeout: 30_000 });
  return `${run.stdout}${run.stderr}`;
};

test('docs/cli.md has every command of `diskdelta --help`, each as `diskdelta COMMAND`', () => {
  const commands = cliHelp([])
    .split('Commands:\n')[1]!
    .split('\n\n')[0]!
    .split('\n')
    .map((line) => line.trim().split(' ')[0]!);
  assert.ok(commands.length >= 20 && commands.includes('surface'), commands.join(' '));
  const page = read('docs/cli.md');
  const missing = commands.filter((c) => !new RegExp(`diskdelta ${c}\\b|\\| ${c} `).test(page));
  assert.deepEqual(missing, [], 'commands docs/cli.md does not show');
});

test("every --flag on a `diskdelta COMMAND …` line of the docs is in that command's --help", () => {
  const withSub: Record<string, string[]> = {
    assess: ['start', 'set', 'show', 'list', 'report', 'delete'],
    fleet: ['run', 'compare'],
    helper: ['install', 'uninstall', 'status'],
  };
  const helps = new Map<string, string>();
  const unknown: string[] = [];
  for (const page of ['docs/cli.md', 'docs/forecast.md', 'docs/sustained-write.md', 'docs/app.md', 'docs/own-files.md']) {
    for (const m of read(page).matchAll(/diskdelta ([a-z-]+)(?: ([a-z]+))?([^`\n]*)/g)) {
      const [, command, sub, rest] = m;
      const args = sub && withSub[command!]?.includes(sub) ? [command!, sub] : [command!];
      const flags = [...rest!.matchAll(/(--[a-z][a-z0-9-]*)/g)].map((f) => f[1]!).filter((f) => f !== '--help');
      if (flags.length === 0) continue;
      const key = args.join(' ');
      if (!helps.has(key)) helps.set(key, cliHelp(args));
      for (const flag of flags) if (!new RegExp(`${flag}\\b`).test(helps.get(key)!)) unknown.push(`${page}: diskdelta ${key} ${flag}`);
    }
  }
  assert.ok(helps.size >= 10, `${helps.size} commands checked`);
  assert.deepEqual(unknown, []);
});

test("docs/cli.md's exit 10 names every command that returns not-saved", () => {
  const dir = 'electron/cli/commands';
  const saving = readdirSync(`${ROOT}${dir}`)
    .filter((f) => f.endsWith('.ts') && !f.includes('.test.') && read(`${dir}/${f}`).includes("exitCodeOf('not-saved')"))
    .map((f) => f.replace(/\.ts$/, ''));
  assert.ok(saving.includes('run') && saving.includes('surface'), saving.join(' '));
  const sentence = flat(read('docs/cli.md')).split('10 (every command that measures and saves: ')[1]?.split(';')[0] ?? '';
  assert.deepEqual(
    saving.filter((c) => !sentence.includes(`\`${c}\``)),
    [],
    `the exit-10 sentence should name: ${saving.join(', ')}`,
  );
});

test("docs/own-files.md's sweeping verbs are the worker's: each calls sweep_stale_files(), no other does", () => {
  const main = read('native/src/main.c');
  // run_verb()'s switch: each verb and the function it calls (VERB_CRYPT_HOLD → crypt-hold).
  const calls = new Map(
    [...main.matchAll(/case VERB_(\w+): return (\w+)\(/g)].map((m) => [m[1]!.toLowerCase().replace(/_/g, '-'), m[2]!] as const),
  );
  assert.ok(calls.has('surface') && calls.has('crypt-hold') && calls.size >= 12, [...calls.keys()].join(' '));
  const bodyOf = (fn: string) => {
    const start = main.search(new RegExp(`static int ${fn}\\(options_t \\*o[^)]*\\) \\{`));
    if (start < 0) return '';
    const line = main.slice(start, main.indexOf('\n', start));
    return line.endsWith('}') ? line : main.slice(start, main.indexOf('\n}\n', start));
  };
  const sweeps = (fn: string): boolean => {
    const body = bodyOf(fn);
    if (/sweep_stale_files|workload_opts\(/.test(body)) return true;
    if (/return cmd_run\(/.test(body)) return sweeps('cmd_run');
    // sustained hands over to sustained.c, which sweeps first.
    return fn === 'cmd_sustained' && /sweep_stale_files\(o->target\)/.test(read('native/src/sustained.c'));
  };
  const sweeping = [...calls].filter(([verb, fn]) => verb !== 'cleanup' && sweeps(fn)).map(([verb]) => verb);
  const said = flat(read('docs/own-files.md'))
    .split('Every verb that makes files in `--target` (')[1]!
    .split(')')[0]!
    .split(', ')
    .map((v) => v.replace(/`/g, ''));
  assert.deepEqual(said.toSorted(), sweeping.toSorted());
  assert.ok(sweeps(calls.get('cleanup')!));
});

/** A run setting's default and least value (model/run-settings.ts). */
async function setting(key: string): Promise<{ default: number; min: number }> {
  const { RUN_SETTINGS } = await import('../electron/shared/model/run-settings.ts');
  const found = RUN_SETTINGS.find((d) => d.key === key) as { default?: number; min?: number } | undefined;
  assert.ok(found && typeof found.default === 'number', `no run setting ${key} with a default`);
  return { default: found.default!, min: found.min ?? 0 };
}

test("docs/sustained-write.md's defaults, thresholds and cost sentence are the code's", async () => {
  const page = flat(read('docs/sustained-write.md'));
  const a = await import('../electron/shared/analysis/sustained-write.ts');
  const { SUSTAINED_SAMPLE_MS } = await import('../electron/node/bench/kinds/sustained-write.ts');
  const { formatBytes } = await import('../electron/shared/analysis/units.ts');
  const span = await setting('sustainedSpanBytes');
  const rest = await setting('sustainedRestSec');
  const recovery = await setting('sustainedRecoveryBytes');
  assert.ok(page.includes(`(default ${formatBytes(span.default)}) into a new test file`));
  assert.ok(page.includes(`for \`--sustained-rest\` seconds (default ${rest.default})`));
  assert.ok(page.includes(`bytes (default ${formatBytes(recovery.default)}, at most the span)`));
  assert.ok(page.includes(`any other value is ${formatBytes(recovery.min)} at least`));
  assert.ok(page.includes(`(every ${SUSTAINED_SAMPLE_MS} ms)`));
  assert.ok(page.includes(`differ by ${a.DROP_RATIO}× or more`));
  assert.ok(page.includes(`holds for ${a.MIN_FALL_INTERVALS} intervals and ${a.MIN_FALL_SEC} s at least`));
  assert.ok(page.includes(`at least ${a.FALL_NOISE_SIGMAS} standard deviations`));
  assert.ok(page.includes(`(\`SUSTAINED_NOISE_CEILING\`, ±${a.SUSTAINED_NOISE_CEILING * 100} %)`));
  assert.ok(page.includes(`(${a.FALL_CPU_WAIT * 100} points, \`FALL_CPU_WAIT\`)`));
  assert.ok(page.includes(`until ${a.LISTING_ROWS} lines or fewer remain`));
  // The cost sentence quoted for the defaults and a 600 TB rating, as the CLI words it.
  const cost = a.sustainedCostText(
    {
      sustainedSpanBytes: span.default,
      sustainedRecoveryBytes: recovery.default,
      sustainedRestSec: rest.default,
      ratedEnduranceBytes: 600e12,
    },
    'cli',
  );
  const quoted = cost.split('. Stopping')[0]!;
  assert.ok(page.includes(`"${quoted}"`), `docs/sustained-write.md should quote: "${quoted}"`);
});

test("docs/forecast.md's bounds, link efficiency, rough range and lab accuracy are the code's", async () => {
  const page = flat(read('docs/forecast.md'));
  const c = await import('../electron/shared/model/candidate.ts');
  const { LINK_EFFICIENCY } = await import('../electron/shared/analysis/candidate.ts');
  const { ROUGH_RANGE } = await import('../electron/shared/analysis/workload-forecast.ts');
  const { LAB_ACCURACY } = await import('../electron/shared/analysis/candidate-forecast.ts');
  const { VERDICT_DAYS } = await import('../electron/shared/analysis/working-set.ts');
  const { formatCount } = await import('../electron/shared/analysis/units.ts');
  assert.ok(
    page.includes(`1 to ${c.MAX_CANDIDATES}.`) &&
      page.includes(`takes one to ${['', 'one', 'two', 'three', 'four', 'five'][c.MAX_CANDIDATES]} candidate drives`),
  );
  assert.ok(page.includes(`over ${c.MAX_MBPS / 1000} GB/s (${formatCount(c.MAX_MBPS)} MB/s`));
  assert.equal(c.MAX_CAPACITY_GB, 1e6);
  assert.ok(page.includes('over 1 PB'));
  assert.ok(page.includes(`over ${formatCount(c.MAX_TBW)} TBW`));
  assert.ok(page.includes(`at ${Math.round(LINK_EFFICIENCY * 100)} % of it (\`LINK_EFFICIENCY\`)`));
  assert.ok(page.includes(`SATA 2 (300 MB/s) at ${Math.floor(300 * LINK_EFFICIENCY)} MB/s`));
  assert.ok(page.includes(`by more than ×${ROUGH_RANGE} (\`ROUGH_RANGE\`)`));
  const ratios = LAB_ACCURACY.forecastOverMeasured;
  assert.ok(
    page.includes(`the ${['', '', '', '', '', 'five', 'six'][ratios.length]} runs span ${Math.min(...ratios)}–${Math.max(...ratios)}`),
  );
  // The write phases' lab figures, as LAB_ACCURACY.writes keeps them (bigfile runs, then tree runs).
  const writes = LAB_ACCURACY.writes.forecastOverMeasured;
  const span = (r: number[]) => `${Math.min(...r).toFixed(3)}–${Math.max(...r).toFixed(3)}`;
  assert.ok(
    page.includes(`| ${span(writes.slice(0, 5))} |`) && page.includes(`| ${span(writes.slice(5))} |`),
    'the write table is LAB_ACCURACY.writes',
  );
  assert.ok(page.includes(`scan's ${VERDICT_DAYS}-day working set`));
  // The replay's not-judged line names the command, and its accuracy is said as the output says it.
  const { RECORD_HINT, REPLAY_ACCURACY, REPLAY_LAB } = await import('../electron/shared/analysis/replay-forecast.ts');
  assert.ok(page.includes(`record one: ${RECORD_HINT}`));
  assert.match(REPLAY_ACCURACY, /not measured in the lab/);
  assert.ok(page.includes('says "not measured in the lab" for it'));
  assert.ok(page.includes(`measured ${REPLAY_LAB.forecastOverMeasured.join(', ')} (\`REPLAY_LAB\``));
});

test("docs/cli.md's limits, defaults and thresholds are the code's", async () => {
  const page = flat(read('docs/cli.md'));
  const limits = await import('../electron/shared/model/import-limits.ts');
  const { MAX_TEXT_LINES } = await import('../electron/node/formats/common.ts');
  const { formatCount } = await import('../electron/shared/analysis/units.ts');
  assert.equal(limits.MAX_IMPORT_BYTES, 50 * 2 ** 20);
  assert.ok(
    page.includes(
      `Limits: 50 MiB per file; JSON at most ${formatCount(limits.MAX_JSON_VALUES)} values and ${formatCount(limits.MAX_JSON_CONTAINERS)} objects/arrays, ${limits.MAX_JSON_DEPTH} levels deep; KDiskMark/CrystalDiskMark text at most ${formatCount(MAX_TEXT_LINES)} lines; bonnie++ at most ${formatCount(limits.MAX_RUNS_PER_IMPORT)} rows.`,
    ),
  );
  assert.ok(page.includes(`One file imports at most ${formatCount(limits.MAX_RUNS_PER_IMPORT)} runs`));
  const { LIST_PAGE } = await import('../electron/cli/commands/list.ts');
  const { DEFAULT_LIST_PAGE } = await import('../electron/shared/model/list-page.ts');
  assert.ok(page.includes(`shows the newest ${LIST_PAGE} matching runs`));
  assert.ok(page.includes(`asks for the newest ${DEFAULT_LIST_PAGE} at a time`));
  const { CONNECT_AT_ONCE, PROBES_AT_ONCE } = await import('../electron/node/bench/fleet/probe.ts');
  const { HDD_MAX_IOPS } = await import('../electron/shared/analysis/fleet-compare.ts');
  assert.ok(page.includes(`${CONNECT_AT_ONCE} hosts at a time`) && page.includes(`client, ${PROBES_AT_ONCE} at a time`));
  assert.ok(page.includes(`(under ${HDD_MAX_IOPS} IOPS is a hard disk`));
  const { MAX_REPORT_RUNS } = await import('../electron/shared/report/paper.ts');
  assert.ok(
    page.includes(`An assessment report of 1–${MAX_REPORT_RUNS} runs`) && page.includes(`more than ${MAX_REPORT_RUNS}, a bad flag`),
  );
  // Adaptive stopping: the preset's timing and the trust thresholds.
  const { PRESETS } = await import('../electron/shared/catalog/presets.ts');
  const { TRUST } = await import('../electron/shared/analysis/statistics.ts');
  const s = PRESETS.standard;
  assert.ok(
    page.includes(
      `runs of ${s.durationSec} s — longer on a slow device, so that each holds ${TRUST.minWindowIos} I/Os, judged late in the warm-up — are added, at least ${s.runs}, until the median is known within ±${s.precision * 100} % and the figure is resolved, or ${s.maxTimeSec} s of runs have passed`,
    ),
  );
  assert.ok(page.includes(`fewer than ${TRUST.minTotalIos} I/Os or ${TRUST.minWindowSec} s over all of them`));
  assert.ok(page.includes(`under ${TRUST.minIos} I/Os or ${TRUST.minWindowSec} s in a run`));
  assert.ok(page.includes(`(CV over ${TRUST.maxCv * 100} %, or the median known only within more than ±${TRUST.maxCiRelative * 100} %`));
  assert.ok(page.includes(`cores over ${TRUST.cpuBoundShare * 100} % busy`));
  assert.equal(constant('native/src/phase.c', 'MAX_WINDOW_NS'), '2000000000ull');
  assert.ok(page.includes("the worker's longest windows (2 s)"));
  // The surface: its defaults and the zones' rule.
  const { ZONE_STEP, MIN_ZONE_SAMPLES } = await import('../electron/shared/analysis/surface.ts');
  const samples = await setting('surfaceSamples');
  const { formatBytes } = await import('../electron/shared/analysis/units.ts');
  assert.ok(page.includes(`\`--sample-bytes\` (default ${formatBytes((await setting('surfaceSampleBytes')).default)})`));
  assert.ok(page.includes(`\`--samples\` offsets (default ${samples.default}, at least ${samples.min})`));
  assert.ok(page.includes(`4 KiB reads (default ${(await setting('surfaceAccesses')).default})`));
  assert.ok(page.includes(`steps by ${ZONE_STEP * 100} % or more (\`ZONE_STEP\`), a zone holding ${MIN_ZONE_SAMPLES} samples at least`));
});

test("docs/app.md names every page of the nav bar, and Compare's and the preload's numbers", async () => {
  const page = flat(read('docs/app.md'));
  const { PAGES } = await import('../renderer/src/view/route.ts');
  assert.deepEqual(
    PAGES.filter((p) => !page.includes(`**${p.title}**`)).map((p) => p.title),
    [],
    'pages docs/app.md does not describe',
  );
  assert.equal(constant('renderer/src/stores/compare.ts', 'MAX_COMPARED'), '6');
  assert.ok(page.includes('**Compare** (2–6 runs or references'));
  assert.equal(constant('renderer/src/app.tsx', 'PRELOAD_OTHERS_AFTER_MS'), '3000');
  assert.ok(page.includes("the other pages' 3 s after the app started"));
});

test("docs/benchmarks.md's sizes and targets are the scripts'", () => {
  const page = flat(read('docs/benchmarks.md'));
  const pins: Array<[string, string, string, string]> = [
    // [script, constant, its value, what the page says]
    ['scripts/bench-library.ts', 'RUNS', '100_000', 'a library of 100,000 synthetic runs'],
    ['scripts/bench-library.ts', 'TARGET_MS', '100', '(target ≤ 100 ms) |'],
    ['scripts/bench-import.ts', 'JOBS', '200_000', 'fio JSON file of 200,000 jobs'],
    ['scripts/bench-import.ts', 'TARGET_S', '10', '(target ≤ 10 s in all)'],
    ['scripts/bench-fleet.ts', 'HOSTS', '1000', '`fleet compare` on 1,000 synthetic hosts'],
    ['scripts/bench-fleet.ts', 'REPEAT', '7', 'median and min–max of 7'],
    ['scripts/bench-fleet-page.ts', 'ROUNDS', '5', '1,000 synthetic hosts × 10 tests, 5 rounds'],
    ['scripts/bench-app.ts', 'ROUNDS', '5', 'browser mode, 5 rounds on synthetic runs'],
    ['scripts/bench-seeks-cv.ts', 'TARGET_CV', '0.05', '(target ≤ 5 %)'],
    ['scripts/bench-standard-time.ts', 'TARGET_SEC', '20', '(target ≤ 20 s)'],
    ['scripts/bench-working-set.ts', 'NOISE_CEILING', '0.25', 'past ±25 % is "not judged"'],
  ];
  const wrong = pins.filter(([script, name, value, said]) => constant(script, name) !== value || !page.includes(said));
  assert.deepEqual(wrong, []);
  assert.ok(/target ≤ 500 ms/.test(read('scripts/bench-app.ts')) && page.includes('first load to interactive (target ≤ 500 ms)'));
  assert.ok(/median\(compareLoads\) <= 100/.test(read('scripts/bench-app.ts')) && page.includes('painted (target ≤ 100 ms)'));
});

test("docs/charts.md's table of types is the registry's: every id in its order, the report column its inReport", async () => {
  const { CHARTS } = await import('../electron/shared/charts/charts.ts');
  const table = read('docs/charts.md').split('## The types today')[1]!.split('\n\n')[1]!;
  const rows = table
    .split('\n')
    .filter((line) => /^\| `/.test(line))
    .map((line) => {
      const cells = line.split(' | ');
      return { id: /`([\w-]+)`/.exec(cells[0]!)![1]!, report: cells.at(-1)!.replace(/\s*\|\s*$/, '') };
    });
  assert.deepEqual(
    rows.map((r) => r.id),
    CHARTS.types.map((t) => t.id),
  );
  assert.deepEqual(
    rows.map((r) => r.report),
    CHARTS.types.map((t) => (t.inReport ? 'yes' : 'no')),
  );
});

test('every `npm run SCRIPT` the README and the docs name is a script of package.json', () => {
  const scripts = Object.keys((JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts);
  const pages = ['README.md', 'e2e/README.md', ...readdirSync(`${ROOT}docs`).map((f) => `docs/${f}`)];
  const named = pages.flatMap((page) => [...read(page).matchAll(/npm run ([\w:-]+)/g)].map((m) => `${page}: ${m[1]!}`));
  assert.ok(named.length >= 20, `${named.length} named`);
  assert.deepEqual(
    named.filter((n) => !scripts.includes(n.split(': ')[1]!)),
    [],
  );
});
