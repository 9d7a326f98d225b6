// THE table of a rate test's numeric parameters, like JOB_KEYS in native/src/job.c: block size,
// queue depth, threads, read share, span (the access patterns: access-patterns.ts). The
// catalog's ids and titles (catalog.ts), the result schemas (schemas.ts), the worker's --job
// argv (bench/worker-argv.ts) and `diskdelta run --job` read it; test-params.test.ts checks it
// against the worker's own --help, so the C tables and these cannot drift.
//
// A test with parameters the catalog never listed gets a stable id from them
// ("seq128k-q32t1-read"), which parses back to the same parameters: it can be run, stored,
// exported and imported like a catalog test.
//
// Pure data: the renderer bundles it.
import { patternOf, type AccessPattern } from './access-patterns.ts';
import type { TestParams } from './schemas.ts';

/** A rate test's parameters: their shape is testParamsSchema (schemas.ts), built from these tables. */
export type { TestParams };

export interface ParamKeyDef {
  key: Exclude<keyof TestParams, 'rw'>;
  /** The worker's --job key. */
  job: string;
  min: number;
  max: number;
  optional?: boolean;
  /** How `--job` spells it: a size with a unit (bs=128k, span=1g) or a plain number. */
  input: 'size' | 'number';
  /** For a size: the unit the worker takes it in (bytes for bs, MiB for span). */
  unitBytes?: number;
  help: string;
}

/** The numeric keys, with the worker's ranges (job.c JOB_KEYS; checked against its --help). */
export const PARAM_KEYS: readonly ParamKeyDef[] = [
  { key: 'blockSize', job: 'bs', min: 512, max: 64 * 2 ** 20, input: 'size', unitBytes: 1, help: 'block size in bytes, a multiple of 512' },
  { key: 'queueDepth', job: 'qd', min: 1, max: 1024, input: 'number', help: 'queue depth per thread' },
  { key: 'threads', job: 'threads', min: 1, max: 64, input: 'number', help: 'threads (seekers for rw=seeks)' },
  { key: 'readPercent', job: 'read', min: 0, max: 100, optional: true, input: 'number', help: 'randrw: percent of reads' },
  {
    key: 'spanMiB',
    job: 'span',
    min: 1,
    max: 16 * 2 ** 20,
    optional: true,
    input: 'size',
    unitBytes: 2 ** 20,
    help: 'the part of the target covered, from its start (fio size=)',
  },
];

/** The worker's limit on one job's I/O buffers, qd × bs × threads (job.h JOB_MAX_BUFFER_BYTES). */
export const JOB_MAX_BUFFER_BYTES = 2 ** 30;

const MiB = 2 ** 20;

/** 4096 → "4k", 1048576 → "1m", 131072 → "128k", 512 → "512": the test id spelling. */
export function blockSizeLabel(bytes: number): string {
  if (bytes >= MiB && bytes % MiB === 0) return `${bytes / MiB}m`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024}k`;
  return String(bytes);
}

function blockSizeOf(label: string): number {
  const m = /^(\d+)([km]?)$/.exec(label);
  if (!m) return Number.NaN;
  return Number(m[1]) * (m[2] === 'm' ? MiB : m[2] === 'k' ? 1024 : 1);
}

export function shapeOf(p: TestParams): string {
  return `${blockSizeLabel(p.blockSize)}-q${p.queueDepth}t${p.threads}`;
}

/** 256 → "256m", 1024 → "1g": a span in the test id spelling. */
export function spanLabel(mib: number): string {
  return mib % 1024 === 0 ? `${mib / 1024}g` : `${mib}m`;
}

function spanOf(label: string): number {
  const m = /^(\d+)([mg])$/.exec(label);
  return m ? Number(m[1]) * (m[2] === 'g' ? 1024 : 1) : Number.NaN;
}

/**
 * The id of a test of these parameters in the naming scheme (the catalog may list it under the
 * same id). A span is a suffix ("rnd4k-q1t1-read-span256m"), so a test over part of the target
 * never shares an id with the same test over all of it.
 */
export function paramsId(p: TestParams): string {
  const id = patternOf(p.rw).id(shapeOf(p), p);
  return p.spanMiB === undefined ? id : `${id}-span${spanLabel(p.spanMiB)}`;
}

/** What is wrong with a set of parameters for the worker, or null. */
export function paramsProblem(p: TestParams): string | null {
  for (const k of PARAM_KEYS) {
    const v = p[k.key];
    if (v === undefined) {
      if (k.optional) continue;
      return `${k.job}= is required`;
    }
    if (!Number.isInteger(v) || v < k.min || v > k.max) return `${k.job}=${v}: expected a whole number from ${k.min} to ${k.max}`;
  }
  if (p.blockSize % 512 !== 0) return `bs=${p.blockSize} is not a multiple of 512`;
  if (p.queueDepth * p.blockSize * p.threads > JOB_MAX_BUFFER_BYTES)
    return `qd × bs × threads = ${p.queueDepth} × ${p.blockSize} × ${p.threads} bytes of I/O buffers is over the limit of ${JOB_MAX_BUFFER_BYTES / MiB} MiB: lower one of them`;
  return null;
}

/**
 * The parameters an id of the naming scheme stands for ("seq128k-q32t1-read"), or null: only a
 * canonical id (one paramsId gives back unchanged) whose parameters the worker takes.
 */
export function paramsFromId(fullId: string): TestParams | null {
  const spanned = /^(.*)-span(\d+[mg])$/.exec(fullId);
  const id = spanned ? spanned[1]! : fullId;
  const plain = /^(seq|rnd)(\d+[km]?)-q(\d+)t(\d+)-(read|write)$/.exec(id);
  const mix = /^mix(\d+)-rnd(\d+[km]?)-q(\d+)t(\d+)$/.exec(id);
  let p: TestParams;
  if (plain) {
    const rw = plain[1] === 'seq' ? plain[5] : `rand${plain[5]}`;
    p = { rw: rw as AccessPattern, blockSize: blockSizeOf(plain[2]!), queueDepth: Number(plain[3]), threads: Number(plain[4]) };
  } else if (mix) {
    p = { rw: 'randrw', blockSize: blockSizeOf(mix[2]!), queueDepth: Number(mix[3]), threads: Number(mix[4]), readPercent: Number(mix[1]) };
  } else return null;
  if (spanned) p.spanMiB = spanOf(spanned[2]!);
  return paramsId(p) === fullId && paramsProblem(p) === null ? p : null;
}

/** The worker's --job value for a test id and its parameters: keys from the table, numbers only. */
export function jobText(id: string, p: TestParams): string {
  const parts = [`name=${id}`, `rw=${p.rw}`];
  for (const k of PARAM_KEYS) {
    const v = p[k.key];
    if (v !== undefined) parts.push(`${k.job}=${v}`);
  }
  return parts.join(',');
}
