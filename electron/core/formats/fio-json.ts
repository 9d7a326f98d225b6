// fio JSON (`--output-format=json` and `json+`). Text before the document (fio's "note: …"
// lines on stderr, or the job summary of `--output-format=normal,json`) and after it (the
// normal-format report) is tolerated and kept in sourceMeta.
//
// Each job becomes one TestResult, named from its rw pattern, block size, effective queue
// depth and numjobs (common.ts testIdFor): read bs=1M iodepth=8 numjobs=1 is exactly
// DiskDelta's seq1m-q8t1-read. Synchronous engines (psync, sync, …) run at depth 1 whatever
// iodepth says (fio prints a note and caps it), so depth 1 is used for them.
// Bandwidth is bw_bytes (bytes/s; older fio only has bw in KiB/s, ×1024), IOPS as is, latency
// is the completion latency clat_ns (mean, max, p50/p90/p99/p99.9), and json+'s clat bins
// become the histogram. Clones of a job (numjobs without group_reporting) ran together and are
// summed, as group_reporting would.
import type { AccessPattern, ExtraMetric, LatencyNs, RunRecord, TestParams, TestResult, Warning } from '../model/results.ts';
import { blockSizeLabel, emptyLatency, importedResult, testIdFor, uniqueTestName } from './common.ts';
import { ImportError } from './import-error.ts';
import { lineAt, lineOfPath, scanJsonValue } from './json-scan.ts';

type Path = Array<string | number>;
type Obj = Record<string, unknown>;

const SYNC_ENGINES = new Set(['sync', 'psync', 'vsync', 'pvsync', 'pvsync2', 'mmap', 'splice', 'null']);
const META_TEXT_LIMIT = 2000;

/** fio sizes: "4k", "1M", "64m", "4KiB", plain bytes. fio's default kb_base is 1024. */
export function parseFioSize(text: string): number | null {
  const m = /^(\d+)\s*([kmgt]?)(i?b)?$/i.exec(text.trim());
  if (!m) return null;
  const unit = (m[2] ?? '').toLowerCase();
  const value = Number(m[1]) * 1024 ** (unit === '' ? 0 : 'kmgt'.indexOf(unit) + 1);
  return Number.isSafeInteger(value) ? value : null;
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

interface Ctx {
  text: string;
  start: number;
  fileName: string;
}

function failAt(ctx: Ctx, path: Path, problem: string): never {
  const where = path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${p}`)).join('');
  throw new ImportError(ctx.fileName, lineOfPath(ctx.text, path, ctx.start), `${problem} (at ${where || 'the top'})`);
}

function obj(ctx: Ctx, value: unknown, path: Path): Obj {
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
  return v as number;
}

function options(ctx: Ctx, parent: Obj, key: string, path: Path): Record<string, string> {
  const o = optionalObj(ctx, parent, key, path);
  const out: Record<string, string> = {};
  if (!o) return out;
  for (const [k, v] of Object.entries(o)) {
    if (typeof v !== 'string') failAt(ctx, [...path, key, k], 'an option value must be a string');
    out[k] = v as string;
  }
  return out;
}

/** One direction (read/write/trim) of a job, as the numbers we keep. */
interface Direction {
  bytesPerSec: number;
  iops: number;
  ios: number;
  latency: LatencyNs;
  histogram: Array<[number, number]>;
}

function direction(ctx: Ctx, job: Obj, key: 'read' | 'write' | 'trim', path: Path): Direction | null {
  const d = optionalObj(ctx, job, key, path);
  if (!d) return null;
  const p = [...path, key];
  const bwBytes = num(ctx, d, 'bw_bytes', p, false);
  const bwKiB = bwBytes === null ? num(ctx, d, 'bw', p, true) : null;
  const iops = num(ctx, d, 'iops', p, true) as number;
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
            if (!/^\d+$/.test(k) || !Number.isSafeInteger(bound)) failAt(ctx, [...cp, 'bins', k], 'a histogram bin must be a latency in ns');
            return [bound * scale, count];
          })
          .sort((a, b) => a[0] - b[0]);
      }
    }
  }
  return { bytesPerSec: bwBytes ?? (bwKiB as number) * 1024, iops, ios, latency, histogram };
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
  const maxes = parts.map((d) => d.latency.max).filter((v): v is number => v !== null);
  latency.max = maxes.length > 0 ? Math.max(...maxes) : null;
  const bins = new Map<number, number>();
  for (const d of parts) for (const [b, c] of d.histogram) bins.set(b, (bins.get(b) ?? 0) + c);
  return {
    bytesPerSec: parts.reduce((s, d) => s + d.bytesPerSec, 0),
    iops: parts.reduce((s, d) => s + d.iops, 0),
    ios: total,
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
  const bsParts = (opts.bs ?? opts.blocksize ?? '4k').split(',').map(parseFioSize);
  const readBs = bsParts[0] ?? null;
  const writeBs = bsParts[1] ?? readBs;
  const mixRead = opts.rwmixread !== undefined ? Number(opts.rwmixread) : opts.rwmixwrite !== undefined ? 100 - Number(opts.rwmixwrite) : 50;
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

export function parseFioJson(text: string, fileName: string, now: Date): RunRecord[] {
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
  const globalOpts = options(ctx, root, 'global options', []);
  const jobsValue = root.jobs;
  if (!Array.isArray(jobsValue) || jobsValue.length === 0) failAt(ctx, ['jobs'], '"jobs" must be a non-empty array');

  const meta: Record<string, string> = { 'fio version': version as string };
  for (const key of ['time', 'timestamp']) {
    const v = root[key];
    if (typeof v === 'string' || typeof v === 'number') meta[key] = String(v);
  }
  for (const [k, v] of Object.entries(globalOpts)) meta[`global.${k}`] = v;
  const before = text.slice(0, start).trim();
  const after = text.slice(end).trim();
  if (before) meta.textBefore = before.slice(0, META_TEXT_LIMIT);
  if (after) meta.textAfter = after.slice(0, META_TEXT_LIMIT);

  // Group clones (same job name and options) so numjobs without group_reporting is summed.
  type Group = { shape: JobShape; jobname: string; parts: Map<string, Direction[]>; cpu: { userNs: number; systemNs: number } | null; errors: number[] };
  const groups = new Map<string, Group>();
  (jobsValue as unknown[]).forEach((value, j) => {
    const path: Path = ['jobs', j];
    const job = obj(ctx, value, path);
    const jobname = job.jobname;
    if (typeof jobname !== 'string') failAt(ctx, [...path, 'jobname'], 'missing "jobname" string');
    const jobOpts = options(ctx, job, 'job options', path);
    const opts = { ...globalOpts, ...jobOpts };
    const key = `${jobname as string}\u0000${JSON.stringify(jobOpts)}`;
    let group = groups.get(key);
    if (!group) {
      group = { shape: jobShape(jobname as string, opts), jobname: jobname as string, parts: new Map(), cpu: null, errors: [] };
      groups.set(key, group);
      for (const [k, v] of Object.entries(jobOpts)) meta[`job.${jobname as string}.${k}`] = v;
    }
    for (const dir of group.shape.dirs) {
      const d = direction(ctx, job, dir, path);
      if (d) group.parts.set(dir, [...(group.parts.get(dir) ?? []), d]);
    }
    const usr = num(ctx, job, 'usr_cpu', path, false);
    const sys = num(ctx, job, 'sys_cpu', path, false);
    const runtimeMs = num(ctx, job, 'job_runtime', path, false);
    if (usr !== null && sys !== null && runtimeMs !== null) {
      // usr_cpu/sys_cpu are percent of the job's run time.
      const cpu = group.cpu ?? { userNs: 0, systemNs: 0 };
      cpu.userNs += Math.round((usr / 100) * runtimeMs * 1e6);
      cpu.systemNs += Math.round((sys / 100) * runtimeMs * 1e6);
      group.cpu = cpu;
    }
    const error = num(ctx, job, 'error', path, false);
    if (error) group.errors.push(error);
  });

  const taken = new Set<string>();
  const results: TestResult[] = [];
  const extras: ExtraMetric[] = [];
  for (const group of groups.values()) {
    const perDir = [...group.parts.entries()].map(([dir, parts]) => [dir, combine(parts)] as const);
    if (perDir.length === 0) continue;
    const total = combine(perDir.map(([, d]) => d));
    const name = uniqueTestName(taken, group.shape.name, group.jobname);
    const warnings: Warning[] = group.errors.map((e) => ({ code: 'fio-error', message: `fio reported error ${e} for job ${group.jobname}.` }));
    results.push(
      importedResult({
        test: name,
        params: group.shape.params,
        bytesPerSec: total.bytesPerSec,
        iops: total.iops,
        latencyNs: total.latency,
        histogram: total.histogram,
        cpu: group.cpu,
        warnings,
      }),
    );
    if (perDir.length > 1) {
      // The split of a mixed job is kept so nothing in the file is lost.
      for (const [dir, d] of perDir) {
        extras.push({ name: `${name} ${dir} bandwidth`, value: d.bytesPerSec, unit: 'B/s', note: `fio job ${group.jobname}` });
        extras.push({ name: `${name} ${dir} IOPS`, value: d.iops, unit: 'IO/s', note: `fio job ${group.jobname}` });
      }
    }
  }
  if (results.length === 0) throw new ImportError(fileName, lineAt(text, start), 'no job in the file has read, write or trim results');

  const ts = typeof root.timestamp === 'number' && Number.isFinite(root.timestamp) ? root.timestamp : null;
  const createdAt = ts !== null && ts > 0 && ts < 1e11 ? new Date(ts * 1000).toISOString() : now.toISOString();
  if (ts === null) meta.date = 'not in the file: createdAt is the time of the import';
  const firstOpts = { ...globalOpts, ...((jobsValue as Obj[])[0]?.['job options'] as Record<string, string> | undefined) };
  const path = firstOpts.filename ?? firstOpts.directory ?? '';
  const settings: RunRecord['settings'] = { runs: 1 };
  const size = firstOpts.size ? parseFioSize(firstOpts.size) : null;
  if (size !== null) settings.sizeBytes = size;
  if (firstOpts.runtime && /^\d+$/.test(firstOpts.runtime)) settings.durationSec = Number(firstOpts.runtime);
  if (firstOpts.direct !== undefined) settings.buffered = firstOpts.direct !== '1';
  const engine: RunRecord['engine'] = { name: 'fio', version: version as string };
  const ioEngine = [...groups.values()][0]?.shape.ioEngine;
  if (ioEngine) engine.ioEngine = ioEngine;
  const names = [...groups.values()].map((g) => g.jobname);
  return [
    {
      label: `fio ${names[0]}${names.length > 1 ? ` +${names.length - 1} more` : ''}`,
      notes: '',
      createdAt,
      source: 'imported',
      sourceFormat: 'fio',
      sourceMeta: meta,
      target: { path, kind: path.startsWith('/dev/') ? 'block-device' : 'unknown' },
      settings,
      engine,
      results,
      extras,
      warnings: [],
    },
  ];
}
