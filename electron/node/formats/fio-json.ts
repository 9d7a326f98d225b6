// fio JSON (`--output-format=json` and `json+`). Text before the document (fio's "note: …"
// lines on stderr, or the job summary of `--output-format=normal,json`) and after it (the
// normal-format report) is tolerated and kept in sourceMeta.
//
// Each job becomes one TestResult, named from its rw pattern, block size, effective queue
// depth and numjobs (common.ts testIdFor): read bs=1M iodepth=8 numjobs=1 is exactly
// DiskDelta's seq1m-q8t1-read. Synchronous engines (psync, sync, …) run at depth 1 whatever
// iodepth says (fio prints a note and caps it), so depth 1 is used for them. Jobs on
// different targets (filename, or directory + filename) become one run per target.
//
// What the numbers mean, read from fio's stat.c in each version:
//  - bw_bytes (bytes/s, since fio 3.2) is used where present. Before it, bw is whole KiB/s
//    rounded down (10 KiB/s for a floppy that did 10.6), so the rate is io_bytes / runtime:
//    io_bytes is in bytes since fio 2.21 (which added io_kbytes), in KiB before (">> 10").
//  - A job with a non-zero "error" failed: its figures are null with a test-failed warning,
//    never 0 B/s.
//  - usr_cpu/sys_cpu are percent of job_runtime (since fio 3.8); before that the job's I/O
//    runtime stands in for it, and the run's notes say so.
// Latency is the completion latency clat_ns (clat in µs before fio 3.0): mean, max,
// p50/p90/p99/p99.9; json+'s clat bins become the histogram. Clones of a job (numjobs without
// group_reporting) ran together and are summed, as group_reporting would.
import {
  FAILED_TEST,
  type AccessPattern,
  type ExtraMetric,
  type LatencyNs,
  type RunRecord,
  type TestParams,
  type TestResult,
  type Warning,
} from '../../shared/model/results.ts';
import { blockSizeLabel, emptyLatency, maxOf, resultWithoutRuns, testIdFor, UniqueNames } from './common.ts';
import { ImportError, tooManyRuns, MAX_RUNS_PER_IMPORT } from './import-error.ts';
import { lineAt, lineOfPath, scanJsonValue } from './json-scan.ts';
import { checkResultRate } from './rate-check.ts';
import { figureProblem, type FigureKind } from './sanity.ts';

export type Path = Array<string | number>;
export type Obj = Record<string, unknown>;

const SYNC_ENGINES = new Set(['sync', 'psync', 'vsync', 'pvsync', 'pvsync2', 'mmap', 'splice', 'null']);
const META_TEXT_LIMIT = 2000;
/**
 * Jobs whose own options are kept in sourceMeta ("job.NAME.rw", …). Beyond that a note says
 * how many were left out: every result keeps its test shape, and an object of 600,000 keys
 * (200,000 jobs × 3 options) took seconds for every copy, stringify and store of the run.
 */
const META_JOBS = 100;

/**
 * A size as fio reads it (parse.c __get_mult_bytes): "4k", "64m", "50000Mi", "4GB", plain
 * bytes. With the default kb_base=1024, k/m/g/t/p (with or without "b", or "i" as in "Mi")
 * are powers of 1024 and the IEC spellings KiB/MiB/GiB are powers of 1000 — fio's documented
 * compatibility inversion; kb_base=1000 swaps the two. null for what fio would not read as a
 * byte count ("100%", a bad suffix).
 */
export function parseFioSize(text: string, kbBase: 1000 | 1024 = 1024): number | null {
  const m = /^(\d+(?:\.\d+)?)\s*([a-z]*)$/i.exec(text.trim());
  if (!m) return null;
  const suffix = (m[2] ?? '').toLowerCase();
  let mult = 1;
  if (suffix !== '' && suffix !== 'b') {
    const pow = 'kmgtp'.indexOf(suffix[0] as string) + 1;
    if (pow === 0 || !/^[kmgtp](i?b?)$/.test(suffix)) return null;
    const iec = suffix.endsWith('ib');
    mult = (iec ? (kbBase === 1024 ? 1000 : 1024) : kbBase) ** pow;
  }
  const value = Math.round(Number(m[1]) * mult);
  return Number.isSafeInteger(value) ? value : null;
}

/** A duration as fio reads runtime= (parse.c get_mult_time): "60", "30s", "5m", "1h", "500ms". Seconds. */
export function parseFioSeconds(text: string): number | null {
  const m = /^(\d+(?:\.\d+)?)\s*([a-z]*)$/i.exec(text.trim());
  if (!m) return null;
  const unit = (m[2] ?? '').toLowerCase();
  const perUnit: Record<string, number> = { '': 1, s: 1, m: 60, h: 3600, d: 86400, ms: 1e-3, msec: 1e-3, us: 1e-6, usec: 1e-6 };
  const factor = perUnit[unit];
  return factor === undefined ? null : Number(m[1]) * factor;
}

/** The document starts on the first line whose text begins with "{". */
function documentStart(text: string): number {
  const m = /(^|\n)[ \t]*\{/.exec(text);
  if (!m) return -1;
  return m.index + m[0].length - 1;
}

export function looksLikeFioJson(text: string): boolean {
  const start = documentStart(text);
  return start !== -1 && /"fio version"\s*:/.test(text.slice(start, start + 4000));
}

export interface Ctx {
  text: string;
  start: number;
  fileName: string;
}

export function failAt(ctx: Ctx, path: Path, problem: string): never {
  const where = path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${p}`)).join('');
  throw new ImportError(ctx.fileName, lineOfPath(ctx.text, path, ctx.start), `${problem} (at ${where || 'the top'})`);
}

export function obj(ctx: Ctx, value: unknown, path: Path): Obj {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) failAt(ctx, path, 'expected an object');
  return value as Obj;
}

function optionalObj(ctx: Ctx, parent: Obj, key: string, path: Path): Obj | null {
  return parent[key] === undefined ? null : obj(ctx, parent[key], [...path, key]);
}

function num(ctx: Ctx, parent: Obj, key: string, path: Path, required: boolean): number | null {
  const v = parent[key];
  if (v === undefined && !required) return null;
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) {
    failAt(ctx, [...path, key], v === undefined ? `missing number "${key}"` : `"${key}" must be a non-negative number`);
  }
  return v;
}

export function options(ctx: Ctx, parent: Obj, key: string, path: Path): Record<string, string> {
  const o = optionalObj(ctx, parent, key, path);
  const out: Record<string, string> = {};
  if (!o) return out;
  for (const [k, v] of Object.entries(o)) {
    if (typeof v !== 'string') failAt(ctx, [...path, key, k], 'an option value must be a string');
    out[k] = v;
  }
  return out;
}

/** One direction (read/write/trim) of a job, as the numbers we keep. */
interface Direction {
  bytesPerSec: number;
  iops: number;
  ios: number;
  /** The direction's I/O time in ms (stands in for job_runtime in fio before 3.8). */
  runtimeMs: number;
  /** How much the rate may be off from IOPS × bs through fio's own rounding, in bytes/s. */
  rateSlack: number;
  latency: LatencyNs;
  histogram: Array<[number, number]>;
}

/** bw_bytes; else io_bytes / runtime (io_bytes in KiB before fio 2.21, which added io_kbytes); else bw KiB/s. */
function bandwidth(ctx: Ctx, d: Obj, p: Path, runtimeMs: number | null): { bytesPerSec: number; slack: number } {
  const bwBytes = num(ctx, d, 'bw_bytes', p, false);
  if (bwBytes !== null) return { bytesPerSec: bwBytes, slack: 1 };
  const ioBytes = num(ctx, d, 'io_bytes', p, false);
  if (ioBytes !== null && runtimeMs !== null && runtimeMs > 0) {
    const bytes = d.io_kbytes !== undefined ? ioBytes : ioBytes * 1024;
    // Old fio's io_bytes is KiB rounded down: up to 1 KiB over the whole run.
    return { bytesPerSec: (bytes * 1000) / runtimeMs, slack: d.io_kbytes !== undefined ? 1 : (1024 * 1000) / runtimeMs };
  }
  return { bytesPerSec: (num(ctx, d, 'bw', p, true) as number) * 1024, slack: 1024 };
}

function direction(ctx: Ctx, job: Obj, key: 'read' | 'write' | 'trim' | 'mixed', path: Path): Direction | null {
  const d = optionalObj(ctx, job, key, path);
  if (!d) return null;
  const p = [...path, key];
  const runtimeMs = num(ctx, d, 'runtime', p, false);
  const { bytesPerSec, slack } = bandwidth(ctx, d, p, runtimeMs);
  const iops = num(ctx, d, 'iops', p, true) as number;
  refuseAt(ctx, p, [
    ['rate', bytesPerSec, 'the rate'],
    ['iops', iops, 'the IOPS'],
  ]);
  const ios = num(ctx, d, 'total_ios', p, false) ?? 0;
  const latency = emptyLatency();
  let histogram: Array<[number, number]> = [];
  // clat_ns since fio 3.0; fio 2.x printed "clat" in microseconds.
  const clatNs = optionalObj(ctx, d, 'clat_ns', p);
  const clatUs = clatNs ? null : optionalObj(ctx, d, 'clat', p);
  const clat = clatNs ?? clatUs;
  if (clat) {
    const cp = [...p, clatNs ? 'clat_ns' : 'clat'];
    const scale = clatNs ? 1 : 1000;
    const n = num(ctx, clat, 'N', cp, false);
    if (n === null || n > 0) {
      const mean = num(ctx, clat, 'mean', cp, false);
      const max = num(ctx, clat, 'max', cp, false);
      latency.mean = mean === null ? null : Math.round(mean * scale);
      latency.max = max === null ? null : Math.round(max * scale);
      const pct = optionalObj(ctx, clat, 'percentile', cp);
      if (pct) {
        const at = (k: string) => {
          const v = num(ctx, pct, k, [...cp, 'percentile'], false);
          return v === null ? null : Math.round(v * scale);
        };
        latency.p50 = at('50.000000');
        latency.p90 = at('90.000000');
        latency.p99 = at('99.000000');
        latency.p999 = at('99.900000');
      }
      const bins = optionalObj(ctx, clat, 'bins', cp);
      if (bins) {
        histogram = Object.keys(bins)
          .map((k): [number, number] => {
            const count = num(ctx, bins, k, [...cp, 'bins'], true) as number;
            const bound = Number(k);
            if (!/^\d+$/.test(k) || !Number.isSafeInteger(bound))
              failAt(ctx, [...cp, 'bins', k], 'a histogram bin must be a latency in ns');
            return [bound * scale, count];
          })
          .sort((a, b) => a[0] - b[0]);
      }
    }
  }
  refuseAt(
    ctx,
    p,
    LATENCY_KEYS.map((k) => ['latency', latency[k], `the ${k} latency`] as const),
  );
  return { bytesPerSec, iops, ios, runtimeMs: runtimeMs ?? 0, rateSlack: slack, latency, histogram };
}

const LATENCY_KEYS = ['mean', 'p50', 'p90', 'p99', 'p999', 'max'] as const;

/** Fails on a figure past FIGURE_LIMITS (sanity.ts), naming the entry of the file it is in. */
function refuseAt(ctx: Ctx, path: Path, figures: ReadonlyArray<readonly [FigureKind, number | null, string]>): void {
  for (const [kind, value, what] of figures) {
    const problem = figureProblem(kind, value);
    if (problem) failAt(ctx, path, `${what} ${problem}`);
  }
}

/** Sums directions that ran at the same time (clones of a job, or the two sides of randrw). */
function combine(parts: Direction[]): Direction {
  const total = parts.reduce((s, d) => s + d.ios, 0);
  const latency = emptyLatency();
  if (parts.length === 1) return parts[0] as Direction;
  // Percentiles cannot be merged without the samples; the I/O-weighted mean and the max can.
  if (total > 0 && parts.every((d) => d.latency.mean !== null)) {
    latency.mean = Math.round(parts.reduce((s, d) => s + (d.latency.mean as number) * d.ios, 0) / total);
  }
  latency.max = maxOf(parts.flatMap((d) => (d.latency.max === null ? [] : [d.latency.max])));
  const bins = new Map<number, number>();
  for (const d of parts) for (const [b, c] of d.histogram) bins.set(b, (bins.get(b) ?? 0) + c);
  return {
    bytesPerSec: parts.reduce((s, d) => s + d.bytesPerSec, 0),
    iops: parts.reduce((s, d) => s + d.iops, 0),
    ios: total,
    runtimeMs: maxOf(parts.map((d) => d.runtimeMs)) ?? 0,
    rateSlack: parts.reduce((s, d) => s + d.rateSlack, 0),
    latency,
    histogram: [...bins.entries()].sort((a, b) => a[0] - b[0]),
  };
}

interface JobShape {
  name: string;
  params: TestParams | null;
  dirs: Array<'read' | 'write' | 'trim'>;
  ioEngine: string;
}

function jobShape(jobname: string, opts: Record<string, string>): JobShape {
  const rw = (opts.rw ?? opts.readwrite ?? 'read').split(':')[0] as string; // "randread:8" = sequence offset
  const ioEngine = opts.ioengine ?? 'psync';
  const depthOpt = Number(opts.iodepth ?? '1');
  const depth = SYNC_ENGINES.has(ioEngine) ? 1 : depthOpt;
  const threads = Number(opts.numjobs ?? '1');
  const kbBase = opts.kb_base === '1000' ? 1000 : 1024;
  const bsParts = (opts.bs ?? opts.blocksize ?? '4k').split(',').map((t) => parseFioSize(t, kbBase));
  const readBs = bsParts[0] ?? null;
  const writeBs = bsParts[1] ?? readBs;
  const mixRead =
    opts.rwmixread !== undefined ? Number(opts.rwmixread) : opts.rwmixwrite !== undefined ? 100 - Number(opts.rwmixwrite) : 50;
  const sane = (n: number | null): n is number => n !== null && Number.isSafeInteger(n) && n > 0;
  const bsFor = (pattern: string) => (pattern.includes('write') ? writeBs : readBs);
  const simple: Record<string, { rw: AccessPattern; dirs: JobShape['dirs'] }> = {
    read: { rw: 'read', dirs: ['read'] },
    write: { rw: 'write', dirs: ['write'] },
    randread: { rw: 'randread', dirs: ['read'] },
    randwrite: { rw: 'randwrite', dirs: ['write'] },
    randrw: { rw: 'randrw', dirs: ['read', 'write'] },
  };
  const known = simple[rw];
  const bs = bsFor(rw);
  if (known && sane(bs) && sane(depth) && sane(threads) && (known.rw !== 'randrw' || readBs === writeBs)) {
    const params: TestParams = { rw: known.rw, blockSize: bs, queueDepth: depth, threads };
    if (known.rw === 'randrw') params.readPercent = mixRead;
    return { name: testIdFor(params), params, dirs: known.dirs, ioEngine };
  }
  // Patterns with no DiskDelta equivalent (sequential mixed, trim, odd block sizes) keep a
  // descriptive name in the same spirit and params null.
  let dirs: JobShape['dirs'] = ['read', 'write']; // rw/readwrite, or a spelling we do not know: take what ran
  if (rw === 'trimwrite') dirs = ['trim', 'write'];
  else if (rw.includes('trim')) dirs = ['trim'];
  const shape = sane(bs) && sane(depth) && sane(threads) ? `${blockSizeLabel(bs)}-q${depth}t${threads}` : null;
  return { name: shape ? `fio-${rw}-${shape}` : `fio-${jobname}`, params: null, dirs, ioEngine };
}

/** Reads the JSON document out of the file's text: where it is, its version, what surrounds it. */
export function readFioDocument(text: string, fileName: string, now: Date): Doc {
  const start = documentStart(text);
  if (start === -1) throw new ImportError(fileName, null, 'no fio JSON document found (no line starts with "{")');
  const end = scanJsonValue(text, start, fileName);
  const lineEnd = text.indexOf('\n', end);
  const restOfLine = text.slice(end, lineEnd === -1 ? text.length : lineEnd);
  if (restOfLine.trim() !== '') {
    throw new ImportError(fileName, lineAt(text, end), 'unexpected text right after the JSON document');
  }
  const ctx: Ctx = { text, start, fileName };
  const root = obj(ctx, JSON.parse(text.slice(start, end)) as unknown, []);
  const version = root['fio version'];
  if (typeof version !== 'string') failAt(ctx, ['fio version'], 'missing "fio version" string');
  return { ctx, root, version, before: text.slice(0, start).trim(), after: text.slice(end).trim(), now };
}

/** A file of one fio process's own jobs ("jobs"); client mode's "client_stats" is fio-client-json.ts. */
export function parseFioJobsDocument(doc: Doc): RunRecord[] {
  const { ctx, root } = doc;
  const globalOpts = options(ctx, root, 'global options', []);
  const jobsValue = root.jobs;
  if (!Array.isArray(jobsValue) || jobsValue.length === 0) failAt(ctx, ['jobs'], '"jobs" must be a non-empty array');
  const jobs = (jobsValue as unknown[]).map((value, j): JobEntry => ({ value, path: ['jobs', j] }));
  return runsOfJobs(doc, globalOpts, jobs, null);
}

/** The parsed document and what surrounds it, shared by plain and client-mode files. */
export interface Doc {
  ctx: Ctx;
  root: Obj;
  version: string;
  before: string;
  after: string;
  now: Date;
}

/** One job's object in the document and where it is, for error messages. */
export interface JobEntry {
  value: unknown;
  path: Path;
}

/** Who ran the jobs, in client mode: what a run from one host of a fleet adds to its metadata and label. */
export interface HostTag {
  /** hostname:port as fio's client reached it. */
  host: string;
  meta: Record<string, string>;
}

/**
 * The runs of a list of jobs (one run per target). In client mode it is called once per host
 * with only that host's entries, so two hosts' jobs of the same name are never summed as clones.
 */
export function runsOfJobs(doc: Doc, globalOpts: Record<string, string>, jobs: JobEntry[], host: HostTag | null): RunRecord[] {
  const { ctx, root, version, before, after, now } = doc;
  const { text, start, fileName } = ctx;
  const meta: Record<string, string> = { 'fio version': version };
  for (const key of ['time', 'timestamp']) {
    const v = root[key];
    if (typeof v === 'string' || typeof v === 'number') meta[key] = String(v);
  }
  for (const [k, v] of Object.entries(globalOpts)) meta[`global.${k}`] = v;
  if (host) Object.assign(meta, host.meta);
  if (before) meta.textBefore = before.slice(0, META_TEXT_LIMIT);
  if (after) meta.textAfter = after.slice(0, META_TEXT_LIMIT);

  // Group clones (same job name and options) so numjobs without group_reporting is summed.
  const groups = new Map<string, Group>();
  for (const { value, path } of jobs) {
    const job = obj(ctx, value, path);
    const jobname = job.jobname;
    if (typeof jobname !== 'string') failAt(ctx, [...path, 'jobname'], 'missing "jobname" string');
    const jobOpts = options(ctx, job, 'job options', path);
    const opts = { ...globalOpts, ...jobOpts };
    const key = `${jobname}\u0000${JSON.stringify(jobOpts)}`;
    let group = groups.get(key);
    if (!group) {
      group = {
        shape: jobShape(jobname, opts),
        jobname: jobname,
        opts,
        parts: new Map(),
        cpu: null,
        cpuEstimated: false,
        errors: [],
        first: { value, path },
        bodies: null,
        repeats: [],
      };
      groups.set(key, group);
      if (groups.size <= META_JOBS) for (const [k, v] of Object.entries(jobOpts)) meta[`job.${jobname}.${k}`] = v;
    } else if (isRepeat(group, value, path)) continue;
    const dirs: Direction[] = [];
    for (const dir of group.shape.dirs) {
      const d = direction(ctx, job, dir, path);
      if (!d) continue;
      appendTo(group.parts, dir, d);
      dirs.push(d);
    }
    // unified_rw_reporting=1 (or "mixed") writes one "mixed" object for all directions instead.
    const mixed = dirs.length === 0 ? direction(ctx, job, 'mixed', path) : null;
    if (mixed) {
      appendTo(group.parts, 'mixed', mixed);
      dirs.push(mixed);
    }
    const usr = num(ctx, job, 'usr_cpu', path, false);
    const sys = num(ctx, job, 'sys_cpu', path, false);
    // usr_cpu/sys_cpu are percent of job_runtime (fio 3.8+); older fio has only the I/O runtime.
    let runtimeMs = num(ctx, job, 'job_runtime', path, false);
    if (runtimeMs === null && dirs.length > 0) {
      runtimeMs = maxOf(dirs.map((d) => d.runtimeMs));
      group.cpuEstimated = true;
    }
    if (usr !== null && sys !== null && runtimeMs !== null && runtimeMs > 0) {
      const cpu = group.cpu ?? { userNs: 0, systemNs: 0 };
      cpu.userNs += Math.round((usr / 100) * runtimeMs * 1e6);
      cpu.systemNs += Math.round((sys / 100) * runtimeMs * 1e6);
      group.cpu = cpu;
    }
    const error = num(ctx, job, 'error', path, false);
    if (error) group.errors.push(error);
  }

  // fio prints why a job failed on stderr, before the document: "fio: pid=0, err=22/file:…, error=Invalid argument".
  const errorText = new Map<number, string>();
  for (const m of before.matchAll(/err=\s*(\d+)\/[^\n]*?error=([^\n]+)/g)) errorText.set(Number(m[1]), (m[2] as string).trim());
  const interrupted = /fio: terminating on signal (\d+)/.exec(`${before}\n${after}`);

  const ts = typeof root.timestamp === 'number' && Number.isFinite(root.timestamp) ? root.timestamp : null;
  const createdAt = ts !== null && ts > 0 && ts < 1e11 ? new Date(ts * 1000).toISOString() : now.toISOString();
  if (ts === null) meta.date = 'not in the file: createdAt is the time of the import';

  // One run per target: jobs on two devices are two runs, each named by its own device.
  const byTarget = new Map<string, Group[]>();
  for (const group of groups.values()) {
    const target = targetOf(group.opts);
    appendTo(byTarget, target.path, group);
  }
  if (groups.size > META_JOBS) {
    meta.jobOptions = `the options of the first ${META_JOBS} of ${groups.size} jobs are kept here (job.NAME.OPTION); each result keeps its test shape`;
  }
  // Refused before the runs are built: each would copy the metadata.
  if (byTarget.size > MAX_RUNS_PER_IMPORT) throw tooManyRuns(fileName, `jobs on ${byTarget.size} targets, that is ${byTarget.size}`);
  const runs: RunRecord[] = [];
  for (const [targetPath, targetGroups] of byTarget) {
    const names = new UniqueNames();
    const results: TestResult[] = [];
    const extras: ExtraMetric[] = [];
    for (const group of targetGroups) {
      const perDir = [...group.parts.entries()].map(([dir, parts]) => [dir, combine(parts)] as const);
      if (perDir.length === 0 && group.errors.length === 0) continue;
      // A job name is a label a person typed: trimmed and single-spaced, it qualifies a duplicate.
      const name = names.take(group.shape.name, group.jobname.trim().replace(/\s+/g, ' ') || `job ${results.length + 1}`);
      if (group.errors.length > 0) {
        results.push(failedResult(name, group, errorText));
        continue;
      }
      const total = combine(perDir.map(([, d]) => d));
      const result = resultWithoutRuns({
        test: name,
        params: group.shape.params,
        bytesPerSec: total.bytesPerSec,
        iops: total.iops,
        latencyNs: total.latency,
        histogram: total.histogram,
        cpu: group.cpu,
        // fio's bw is the job's bytes over its whole runtime: the mean rate of one window.
        statistic: 'mean',
      });
      checkResultRate(`fio job ${group.jobname}`, result, { rateStep: 0, iopsStep: 1e-6, slackBytesPerSec: total.rateSlack });
      const repeated = repeatWarning(ctx, group);
      if (repeated) result.warnings.push(repeated);
      results.push(result);
      if (perDir.length > 1) {
        // The split of a mixed job is kept so nothing in the file is lost.
        for (const [dir, d] of perDir) {
          extras.push({ name: `${name} ${dir} bandwidth`, value: d.bytesPerSec, unit: 'B/s', note: `fio job ${group.jobname}` });
          extras.push({ name: `${name} ${dir} IOPS`, value: d.iops, unit: 'IO/s', note: `fio job ${group.jobname}` });
        }
      }
    }
    if (results.length === 0) continue;
    runs.push(
      runFor(targetPath, targetGroups, { meta, createdAt, version: version, results, extras, interrupted, split: byTarget.size > 1, host }),
    );
  }
  if (runs.length === 0) throw new ImportError(fileName, lineAt(text, start), 'no job in the file has read, write or trim results');
  return runs;
}

/**
 * Adds to a list in a map in place. Copying the list on every add ([...list, item]) made an
 * fio file of 200,000 jobs on one target take minutes: each job copied all the jobs before it.
 */
function appendTo<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/**
 * Whether a job's entry repeats an earlier entry of its group exactly: it is then recorded and
 * not summed. Clones of a job (numjobs without group_reporting) share its name and options but
 * are measurements of their own, so their figures differ; one entry twice, the same to the last
 * digit, is the file repeating itself (331.7 MB/s once became 663.4, #38). A failed clone
 * measured nothing and may well equal its siblings: those are failures, never summed anyway.
 */
function isRepeat(group: Group, value: unknown, path: Path): boolean {
  if ((value as Obj).error) return false;
  // Serialized only once a group has a second entry: most jobs have none.
  const bodies = (group.bodies ??= new Map([[JSON.stringify(group.first.value), group.first.path]]));
  const body = JSON.stringify(value);
  const earlier = bodies.get(body);
  if (earlier) {
    group.repeats.push({ path, earlier });
    return true;
  }
  bodies.set(body, path);
  return false;
}

/** The warning for a group's repeated entries, with the first one's place in the file. */
function repeatWarning(ctx: Ctx, group: Group): Warning | null {
  const [first] = group.repeats;
  if (!first) return null;
  const where = (path: Path) => path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${p}`)).join('');
  const line = lineOfPath(ctx.text, first.path, ctx.start);
  const more = group.repeats.length > 1 ? ` (and ${group.repeats.length - 1} more)` : '';
  return {
    code: 'repeated-entry',
    message:
      `fio job ${group.jobname}: the entry at ${where(first.path)}${line === null ? '' : ` (line ${line})`}${more} repeats the one at ` +
      `${where(first.earlier)} exactly, to the last digit: the file holds one measurement twice, so it is counted once, not summed as ` +
      'clones of the job.',
  };
}

interface Group {
  /** The group's first entry, and each distinct entry's text once a second one came (isRepeat). */
  first: JobEntry;
  bodies: Map<string, Path> | null;
  repeats: Array<{ path: Path; earlier: Path }>;
  shape: JobShape;
  jobname: string;
  /** Global options merged with the job's own. */
  opts: Record<string, string>;
  parts: Map<string, Direction[]>;
  cpu: { userNs: number; systemNs: number } | null;
  /** True when the CPU time came from the I/O runtime (no job_runtime before fio 3.8). */
  cpuEstimated: boolean;
  errors: number[];
}

/**
 * What a job ran on, as fio builds the file name (filesetup.c add_file): directory + "/" +
 * filename when both are set; the directory alone when fio names the files itself.
 */
function targetOf(opts: Record<string, string>): RunRecord['target'] {
  const dir = opts.directory;
  const file = opts.filename;
  if (file && dir) return { path: `${dir.replace(/\/+$/, '')}/${file}`, kind: 'unknown' };
  if (file) return { path: file, kind: file.startsWith('/dev/') ? 'block-device' : 'unknown' };
  if (dir) return { path: dir, kind: 'folder' };
  return { path: '', kind: 'unknown' };
}

function failedResult(name: string, group: Group, errorText: Map<number, string>): TestResult {
  const why = [...new Set(group.errors)].map((e) => `error ${e}${errorText.has(e) ? ` (${errorText.get(e)})` : ''}`).join(', ');
  return resultWithoutRuns({
    test: name,
    params: group.shape.params,
    bytesPerSec: null,
    iops: null,
    warnings: [{ code: FAILED_TEST, message: `fio job ${group.jobname} failed with ${why}: it measured nothing, so no figure is kept.` }],
  });
}

function runFor(
  targetPath: string,
  groups: Group[],
  ctx: {
    meta: Record<string, string>;
    createdAt: string;
    version: string;
    results: TestResult[];
    extras: ExtraMetric[];
    interrupted: RegExpExecArray | null;
    split: boolean;
    host: HostTag | null;
  },
): RunRecord {
  const first = groups[0] as Group;
  const opts = first.opts;
  const kbBase = opts.kb_base === '1000' ? 1000 : 1024;
  const settings: RunRecord['settings'] = { runs: 1 };
  const size = opts.size ? parseFioSize(opts.size, kbBase) : null;
  if (size !== null) settings.sizeBytes = size;
  const runtime = opts.runtime ? parseFioSeconds(opts.runtime) : null;
  if (runtime !== null) settings.durationSec = runtime;
  if (opts.direct !== undefined) settings.buffered = opts.direct !== '1';
  const engine: RunRecord['engine'] = { name: 'fio', version: ctx.version };
  engine.ioEngine = first.shape.ioEngine;
  const names = groups.map((g) => g.jobname.trim());
  const notes: string[] = [];
  const estimated = groups.filter((g) => g.cpuEstimated && g.cpu).map((g) => g.jobname.trim());
  if (estimated.length > 0) {
    notes.push(
      `CPU time of ${estimated.join(', ')} is usr_cpu/sys_cpu × the I/O runtime: this fio (before 3.8) does not write ` +
        'job_runtime, the time those percentages are of.',
    );
  }
  const warnings: Warning[] = [];
  if (ctx.interrupted) {
    warnings.push({
      code: 'interrupted',
      message: `fio was stopped by signal ${ctx.interrupted[1]} ("terminating on signal"): the figures cover only the part that ran, not the full job.`,
    });
  }
  const label = `${ctx.host ? `${ctx.host.host} · ` : ''}fio ${names[0]}${names.length > 1 ? ` +${names.length - 1} more` : ''}${ctx.split && targetPath ? ` (${targetPath})` : ''}`;
  return {
    label,
    notes: notes.join('\n'),
    createdAt: ctx.createdAt,
    source: 'imported',
    sourceFormat: 'fio',
    sourceMeta: { ...ctx.meta },
    target: targetOf(opts),
    settings,
    engine,
    results: ctx.results,
    extras: ctx.extras,
    warnings,
  };
}
