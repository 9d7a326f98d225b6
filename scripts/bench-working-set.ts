// `npm run bench:working-set [-- --dir DIR --files N --rounds R]`: files per second of the
// working-set scan beside the anchor `find DIR -printf '%A@ %s\n'` (which stats every entry as
// the scan does), on the same tree of 200,000 files, both warm (one untimed pass each first),
// alternating rounds in one run. Goal: the scan ≥ 1× find's files/s. It prints both the worker's
// verb alone (the walk) and the whole `diskdelta working-set --no-save --json` process (Node's
// start, the mount facts, the disk lock), and judges the verb. A benchmark, not a test: it never
// fails on a slow machine, and a noise past the ceiling is "not judged", with the reason.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, openSync, closeSync, rmSync, writeSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { median } from '../electron/shared/analysis/statistics.ts';
import { locateWorker } from '../electron/node/bench/worker-client.ts';

const { values } = parseArgs({
  options: { dir: { type: 'string' }, files: { type: 'string' }, rounds: { type: 'string' } },
  strict: true,
});
const FILES = Number(values.files ?? 200_000);
const ROUNDS = Number(values.rounds ?? 7);
if (!Number.isInteger(FILES) || FILES < 1000 || !Number.isInteger(ROUNDS) || ROUNDS < 3) {
  console.error('bench:working-set: --files takes a whole number ≥ 1000, --rounds one ≥ 3');
  process.exit(2);
}
/** Past this round-to-round noise of the ratio (relative, about one standard deviation) nothing is judged. */
const NOISE_CEILING = 0.25;
const PER_FOLDER = 100;

/** A tree of FILES small files, 100 per folder, 100 folders per parent: a home folder's shape, roughly. */
function makeTree(root: string): void {
  for (let i = 0; i < FILES; i++) {
    const dir = join(root, `p${Math.floor(i / (PER_FOLDER * 100))}`, `d${Math.floor(i / PER_FOLDER) % 100}`);
    if (i % PER_FOLDER === 0) mkdirSync(dir, { recursive: true });
    const fd = openSync(join(dir, `f${i % PER_FOLDER}`), 'w');
    if (i % 3) writeSync(fd, Buffer.alloc((i % 17) * 512, 1));
    closeSync(fd);
  }
}

function timed(cmd: string, args: string[]): { seconds: number; stdout: string } {
  const start = performance.now();
  const r = spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 256 * 2 ** 20 });
  const seconds = (performance.now() - start) / 1000;
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed: ${r.stderr}`);
  return { seconds, stdout: r.stdout };
}

const made = !values.dir;
const root = values.dir ?? mkdtempSync(join(tmpdir(), 'dd-bench-working-set-'));
try {
  if (made || !existsSync(root)) {
    console.log(`making ${FILES.toLocaleString('en')} files under ${root} …`);
    makeTree(root);
  }
  const worker = locateWorker();
  const cli = fileURLToPath(new URL('../bin/diskdelta.js', import.meta.url));
  const runs = {
    find: () => timed('find', [root, '-printf', '%A@ %s\\n']),
    verb: () => timed(worker, ['working-set', '--target', root]),
    command: () => timed(process.execPath, [cli, 'working-set', root, '--no-save', '--json']),
  };
  // Warm: every inode and folder in the cache, for both sides alike.
  const entries = runs.find().stdout.split('\n').filter(Boolean).length;
  const scanned = JSON.parse(runs.command().stdout) as Array<{ summary: { files: number } }>;
  runs.verb();
  const times: Record<keyof typeof runs, number[]> = { find: [], verb: [], command: [] };
  const order = Object.keys(runs) as Array<keyof typeof runs>;
  for (let round = 0; round < ROUNDS; round++) {
    // The order rotates, so no side always runs right after another's cache warming.
    for (let k = 0; k < order.length; k++) {
      const name = order[(round + k) % order.length]!;
      times[name].push(runs[name]().seconds);
    }
  }
  const rate = (name: keyof typeof runs) => times[name].map((s) => entries / s);
  const line = (label: string, name: keyof typeof runs) => {
    const r = rate(name);
    return `  ${label.padEnd(44)} ${Math.round(median(r)).toLocaleString('en').padStart(12)} entries/s  (rounds ${Math.round(Math.min(...r)).toLocaleString('en')}–${Math.round(Math.max(...r)).toLocaleString('en')})`;
  };
  console.log(
    `\n${entries.toLocaleString('en')} entries (find's lines; the scan counted ${scanned[0]?.summary.files.toLocaleString('en')} files), ${ROUNDS} rounds, warm; load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  console.log(line("find -printf '%A@ %s\\n' (the anchor)", 'find'));
  console.log(line('diskdelta-worker working-set (the walk)', 'verb'));
  console.log(line('diskdelta working-set --no-save --json', 'command'));
  for (const name of ['verb', 'command'] as const) {
    const ratios = times.find.map((f, i) => f / times[name][i]!);
    const ratio = median(ratios);
    const noise = (1.4826 * median(ratios.map((x) => Math.abs(x - ratio)))) / ratio;
    const medianNoise = (1.2533 * noise) / Math.sqrt(ratios.length);
    const verdict =
      noise > NOISE_CEILING
        ? `not judged: one round's ratio varies by ±${(noise * 100).toFixed(0)} %, past the ${NOISE_CEILING * 100} % ceiling (a busy machine); run it on a quieter one`
        : ratio >= 1
          ? 'goal met (≥ 1×)'
          : ratio + 2 * medianNoise * ratio >= 1
            ? `undecided: below 1× by less than this machine's noise (±${(2 * medianNoise * 100).toFixed(1)} % on the median)`
            : 'BELOW the goal of 1×';
    const judged = name === 'verb' ? verdict : `${verdict}; for information (Node's start-up is in it)`;
    console.log(
      `  ${name === 'verb' ? 'walk' : 'command'} / find: ×${ratio.toFixed(2)} median of paired rounds (×${Math.min(...ratios).toFixed(2)}–×${Math.max(...ratios).toFixed(2)}, ±${(medianNoise * 100).toFixed(1)} % on the median): ${judged}`,
    );
  }
} finally {
  if (made) rmSync(root, { recursive: true, force: true });
}
