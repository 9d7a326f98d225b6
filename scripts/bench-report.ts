// `npm run bench:report`: seconds for `diskdelta report 1 2 3 --out r.pdf` (the three 2011
// reference runs) from the command line, beside the floor measured in the same run: a Node
// process that starts the same Chromium through playwright-core, prints an empty page to PDF
// and exits. Targets (issue 15): report ≤ 3 s and within 1.5 s of that floor. Both are
// separate processes, alternated, so machine noise hits both alike; medians are printed.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromiumArgs, CHROMIUM_MISSING, findChromium } from '../electron/node/report/chromium-printer.ts';
import { PRINT_OPTIONS } from '../electron/shared/report/printer.ts';

const ROUNDS = Number(process.argv[2] ?? 5);
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CLI = join(ROOT, 'bin', 'diskdelta.js');

const chromium = findChromium();
if (!chromium) {
  console.error(`bench:report: ${CHROMIUM_MISSING}`);
  process.exit(1);
}

const dir = mkdtempSync(join(tmpdir(), 'diskdelta-bench-report-'));
const env = { ...process.env, DISKDELTA_DB: join(dir, 'library.sqlite') };

function timed(args: string[], what: string): number {
  const started = performance.now();
  const result = spawnSync(process.execPath, args, { cwd: ROOT, env, encoding: 'utf8' });
  const seconds = (performance.now() - started) / 1000;
  if (result.status !== 0) throw new Error(`${what} failed (${result.status}):\n${result.stderr}`);
  return seconds;
}

// The floor: what any PDF from this Chromium costs (Node start, playwright-core, launch, print, exit).
const FLOOR = `
const { chromium } = await import('playwright-core');
const browser = await chromium.launch({ executablePath: ${JSON.stringify(chromium)}, headless: true, args: ${JSON.stringify(chromiumArgs())} });
const page = await browser.newPage();
await page.setContent('<!doctype html><title>empty</title>');
const pdf = await page.pdf(${JSON.stringify(PRINT_OPTIONS)});
await browser.close();
if (pdf.length < 100) process.exit(1);
`;

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

try {
  timed([CLI, 'import', '--reference'], 'import --reference');
  const report: number[] = [];
  const floor: number[] = [];
  const out = join(dir, 'r.pdf');
  // One untimed round of each warms the disk cache for both alike.
  timed(['--input-type=module', '-e', FLOOR], 'empty-page floor');
  timed([CLI, 'report', '1', '2', '3', '--out', out, '--force'], 'diskdelta report');
  for (let i = 0; i < ROUNDS; i++) {
    floor.push(timed(['--input-type=module', '-e', FLOOR], 'empty-page floor'));
    report.push(timed([CLI, 'report', '1', '2', '3', '--out', out, '--force'], 'diskdelta report'));
  }
  const r = median(report);
  const f = median(floor);
  console.log(
    `Chromium: ${chromium}; ${ROUNDS} rounds, alternated; load average ${loadavg()[0]!.toFixed(1)} on ${availableParallelism()} CPUs`,
  );
  console.log(
    `  diskdelta report 1 2 3 (3 runs, ${statSync(out).size} bytes PDF)  median ${r.toFixed(2)} s   [${report.map((x) => x.toFixed(2)).join(', ')}]`,
  );
  console.log(
    `  empty page to PDF, same Chromium (floor)        median ${f.toFixed(2)} s   [${floor.map((x) => x.toFixed(2)).join(', ')}]`,
  );
  console.log(
    `  report − floor: ${(r - f).toFixed(2)} s (target ≤ 1.5 s); report ${r.toFixed(2)} s (target ≤ 3 s); ratio ×${(r / f).toFixed(2)}`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
