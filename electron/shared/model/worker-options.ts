// THE table of the worker's verbs and options (fio's options.c is the model): name, value kind,
// range, default, which verbs take it, help. The worker's native/src/worker-options.h is
// generated from it (`npm run gen:worker-options`; worker-options.test.ts fails when the header
// is stale), so the C parser, its --help and the TypeScript side (run settings, argv builders)
// read one list of ranges and cannot drift apart.
//
// Pure data: the renderer bundles the run settings that point into it.

/** The worker's verbs that take the options below (`ciphers` parses its own, cipher-bench.c). */
export const WORKER_VERBS = [
  { name: 'run', help: 'measure the jobs on --target (test file created, filled, always removed)' },
  { name: 'prepare', help: 'create and fill a test file in --target and keep it; prints its path (for harnesses)' },
  { name: 'cleanup', help: 'remove test files left in --target by killed runs' },
  {
    name: 'hold',
    help:
      'open the block device --target once (--helper or --fd) and serve its descriptor on --socket\n' +
      "             to this user's runs (--fd-from) until stdin closes: one authentication a session",
  },
  {
    name: 'crypt-hold',
    help:
      "have the helper map DiskDelta's own test file --target through dm-crypt (--crypt), read-only,\n" +
      '             and serve the mapping on --socket and the loop beneath on --socket.raw until stdin closes',
  },
  { name: 'tree', help: "write a source tree of a real release's shape, syncfs; delete it, syncfs (--runs, --tree-files)" },
  { name: 'bigfile', help: 'write one --size file (shrunk to what fits), syncfs; delete it, syncfs' },
  { name: 'app-start', help: '--readers programs start at once from a cold cache, each reading its own files' },
  {
    name: 'working-set',
    help:
      "walk the folder --target on its one mount (reads no file) and report its files' bytes by days\n" +
      '             since last read or written, per child folder; other mounts and unreadable folders named',
  },
  {
    name: 'record',
    help:
      "record the file accesses on --target's whole filesystem (fanotify: --helper, --fd or root) into\n" +
      '             --trace, per touch only a hash of the file, its bytes and when; until --seconds or a signal',
  },
  {
    name: 'sustained',
    help:
      'write --size bytes sequentially into a new test file in the folder --target (--block, --depth),\n' +
      '             the rate every --sample-ms; then, after --rest idle seconds, --recovery-size bytes again; file removed',
  },
  {
    name: 'surface',
    help:
      'read the block device --target at --samples offsets spread from its start to its end, --sample-bytes\n' +
      '             each in --block reads (O_DIRECT, read-only), then --accesses random 4 KiB reads for the access time',
  },
] as const;

export type WorkerVerb = (typeof WORKER_VERBS)[number]['name'];

/**
 * How a value is read: string (as given), bytes/count/u64 (whole numbers; u64 unchecked, a seed),
 * number (a decimal: seconds, a fraction), flag (no value), job (a --job spec, job.c).
 */
export type WorkerOptionKind = 'string' | 'bytes' | 'number' | 'count' | 'u64' | 'flag' | 'job';

export interface WorkerOption {
  /** Without the dashes: `duration` is `--duration`. */
  name: string;
  /** The field of the C worker's options_t it fills (main.c). */
  field: string;
  /** The value's placeholder in --help; null for a flag. */
  arg: string | null;
  kind: WorkerOptionKind;
  /** Inclusive range of bytes, number and count options (ignored for the others). */
  min: number;
  max: number;
  /** The worker's default; null when there is none (or it is not a number: said in `help`). */
  default: number | null;
  verbs: readonly WorkerVerb[];
  help: string;
}

const ALL: readonly WorkerVerb[] = WORKER_VERBS.map((v) => v.name);
const MEASURE = ['run', 'prepare'] as const;
const WORKLOADS = ['tree', 'bigfile', 'app-start'] as const;
const DEVICE = ['run', 'prepare', 'hold'] as const;
const GiB = 2 ** 30;

/** In the order --help lists them. */
export const WORKER_OPTIONS: readonly WorkerOption[] = [
  {
    name: 'target',
    field: 'target',
    arg: 'PATH',
    kind: 'string',
    min: 0,
    max: 0,
    default: null,
    verbs: ALL,
    help: 'folder to test in, or a block device (read tests only)',
  },
  {
    name: 'size',
    field: 'size',
    arg: 'BYTES',
    kind: 'bytes',
    // The worker's own tests use files of a few MiB; a user's run asks for 16 MiB at least (run-settings.ts).
    min: 2 ** 20,
    max: 2 ** 50,
    default: GiB,
    verbs: [...DEVICE, 'bigfile', 'sustained'],
    help: 'test file size / device span; sustained: bytes written past the fast cache',
  },
  // 0.2 s is the shortest window the presets use (bench/presets.ts ADAPTIVE) and the shortest a run
  // may ask for; a shorter one resolved nothing the trust rule (TRUST.minWindowSec) accepts, and
  // the worker allowing 0.05 s while every caller refused it was drift, not a feature.
  {
    name: 'duration',
    field: 'duration',
    arg: 'SECONDS',
    kind: 'number',
    min: 0.2,
    max: 3600,
    default: 5,
    verbs: ['run'],
    help: 'timed window of each run',
  },
  {
    name: 'warmup',
    field: 'warmup',
    arg: 'SECONDS',
    kind: 'number',
    min: 0,
    max: 600,
    default: 1,
    verbs: ['run'],
    help: 'untimed I/O before the runs of each job',
  },
  // Worn or precious drives: the worker itself refuses every write, whatever the caller sent.
  {
    name: 'read-only',
    field: 'read_only',
    arg: null,
    kind: 'flag',
    min: 0,
    max: 0,
    default: null,
    verbs: ['run'],
    help: 'write nothing: refuse writing jobs and a folder target (its test file is a write); block devices only',
  },
  // CrystalDiskMark 9's Flash Memory profile waits between tests: a USB stick or an SD card
  // folds its fast cache back while idle, and a test started at once measures the last one's debt.
  {
    name: 'rest',
    field: 'rest',
    arg: 'SECONDS',
    kind: 'number',
    min: 0,
    max: 600,
    default: 0,
    verbs: ['run', 'sustained'],
    help: "idle seconds between one job and the next, or before sustained's recovery (no I/O; a stop signal ends the wait)",
  },
  {
    name: 'runs',
    field: 'runs',
    arg: 'N',
    kind: 'count',
    min: 1,
    max: 100,
    default: 1,
    verbs: ['run', ...WORKLOADS],
    help: 'timed runs per job (workloads: timed passes); with --precision the fewest',
  },
  {
    name: 'precision',
    field: 'precision',
    arg: 'FRACTION',
    kind: 'number',
    min: 0,
    max: 0.5,
    default: 0,
    verbs: ['run'],
    help:
      "adaptive: add runs until the median's 95 % interval is within ±FRACTION (0.02: ±2 %)\n" +
      '                        and --min-ios/--min-time are met, or until --max-time/--max-runs; 0: --runs fixed',
  },
  {
    name: 'steady',
    field: 'steady',
    arg: null,
    kind: 'flag',
    min: 0,
    max: 0,
    default: null,
    verbs: ['run'],
    help:
      'steady state, SNIA PTS: add runs (rounds) until the last 5 lie within 20 % of their mean and their\n' +
      "                        fitted line's rise within 10 % of it, or until --max-runs (at least --runs)",
  },
  {
    name: 'max-runs',
    field: 'max_runs',
    arg: 'N',
    kind: 'count',
    min: 1,
    max: 100,
    default: 100,
    verbs: ['run'],
    help: 'adaptive: most timed runs per job',
  },
  {
    name: 'max-time',
    field: 'max_time',
    arg: 'SECONDS',
    kind: 'number',
    min: 0,
    max: 36000,
    default: 0,
    verbs: ['run'],
    help: 'adaptive: most timed seconds per job, warm-up excluded; 0: none',
  },
  {
    name: 'min-ios',
    field: 'min_ios',
    arg: 'N',
    kind: 'count',
    min: 0,
    max: 1_000_000,
    default: 0,
    verbs: ['run'],
    help: "adaptive: fewest I/Os over a job's runs before it may stop",
  },
  {
    name: 'min-window-ios',
    field: 'min_window_ios',
    arg: 'N',
    kind: 'count',
    min: 0,
    max: 1_000_000,
    default: 0,
    verbs: ['run'],
    help: 'runs of a slow device last long enough for N I/Os, judged late in the warm-up; 0: --duration',
  },
  {
    name: 'min-time',
    field: 'min_time',
    arg: 'SECONDS',
    kind: 'number',
    min: 0,
    max: 3600,
    default: 0,
    verbs: ['run'],
    help: "adaptive: fewest timed seconds over a job's runs before it may stop",
  },
  {
    name: 'sample-ms',
    field: 'sample_ms',
    arg: 'MS',
    kind: 'count',
    min: 0,
    max: 10_000,
    default: 100,
    verbs: ['run', 'sustained'],
    help: 'sample interval, 0 for none; at least 50',
  },
  {
    name: 'job',
    field: 'jobs',
    arg: 'SPEC',
    kind: 'job',
    min: 0,
    max: 0,
    default: null,
    verbs: MEASURE,
    help: 'a test, repeatable: name=ID,rw=PATTERN,bs=N,qd=N,threads=N[,read=PCT]',
  },
  {
    name: 'engine',
    field: 'engine',
    arg: 'NAME',
    kind: 'string',
    min: 0,
    max: 0,
    default: null,
    verbs: MEASURE,
    help: 'io_uring (default), aio or psync; each falls back to the next, reported',
  },
  {
    name: 'buffered',
    field: 'buffered',
    arg: null,
    kind: 'flag',
    min: 0,
    max: 0,
    default: null,
    verbs: MEASURE,
    help: "no O_DIRECT (page cache): results are flagged as not the disk's",
  },
  {
    name: 'file',
    field: 'file',
    arg: 'PATH',
    kind: 'string',
    min: 0,
    max: 0,
    default: null,
    verbs: ['run'],
    help: 'run: reuse a file made by `prepare` (kept afterwards)',
  },
  {
    name: 'fd',
    field: 'fd',
    arg: 'N',
    kind: 'count',
    min: 3,
    max: 2 ** 20,
    default: null,
    verbs: [...DEVICE, 'record', 'surface'],
    help: "block device: measure on this inherited read-only descriptor of --target; record: an inherited fanotify group (root's, reporting descriptors)",
  },
  {
    name: 'helper',
    field: 'helper',
    arg: 'PATH',
    kind: 'string',
    min: 0,
    max: 0,
    default: null,
    verbs: [...DEVICE, 'crypt-hold', 'app-start', 'record', 'surface'],
    help:
      'block device: have `pkexec PATH open-ro` open --target and pass it back; app-start: drop the page cache through it;\n' +
      '                        record: have `pkexec PATH record-accesses` record and pass back only records of files you may look up',
  },
  {
    name: 'fd-from',
    field: 'fd_from',
    arg: 'PATH',
    kind: 'string',
    min: 0,
    max: 0,
    default: null,
    verbs: [...MEASURE, 'surface'],
    help: "block device: fetch the descriptor from a `hold` process's socket",
  },
  {
    name: 'socket',
    field: 'socket',
    arg: 'PATH',
    kind: 'string',
    min: 0,
    max: 0,
    default: null,
    verbs: ['hold', 'crypt-hold'],
    help: "hold: where to serve the descriptor (a new name in a private folder); crypt-hold: the mapping's,\n                        and the loop's at PATH.raw",
  },
  {
    name: 'crypt',
    field: 'crypt',
    arg: 'SPEC',
    kind: 'string',
    min: 0,
    max: 0,
    default: null,
    verbs: ['crypt-hold'],
    help: 'crypt-hold: "CIPHER KEY_BITS SECTOR_BYTES FLAGS", e.g. "aes-xts-plain64 512 4096 none"',
  },
  {
    name: 'seed',
    field: 'seed',
    arg: 'N',
    kind: 'u64',
    min: 0,
    max: 0,
    default: null,
    verbs: [...MEASURE, 'surface'],
    help: 'random seed (default: from the kernel)',
  },
  {
    name: 'warmup-passes',
    field: 'warmup_passes',
    arg: 'N',
    kind: 'count',
    min: 0,
    max: 10,
    default: 1,
    verbs: WORKLOADS,
    help: 'workloads: untimed passes before the --runs timed ones',
  },
  {
    name: 'tree-files',
    field: 'tree_files',
    arg: 'N',
    kind: 'count',
    min: 1,
    max: 10_000_000,
    default: null,
    verbs: ['tree'],
    help: "tree: files, the shape scaled to them (default: the release's)",
  },
  {
    name: 'tree-bytes',
    field: 'tree_bytes',
    arg: 'BYTES',
    kind: 'bytes',
    min: 2 ** 20,
    max: 2 ** 44,
    default: null,
    verbs: ['tree'],
    help: "tree: total bytes, sizes scaled (default: the release's)",
  },
  {
    name: 'readers',
    field: 'readers',
    arg: 'N',
    kind: 'count',
    min: 1,
    max: 64,
    default: 4,
    verbs: ['app-start'],
    help: 'app-start: programs starting at once, each its own files',
  },
  {
    name: 'app-mix',
    field: 'app_mix',
    arg: 'MIX',
    kind: 'string',
    min: 0,
    max: 0,
    default: null,
    verbs: ['app-start'],
    help: 'app-start: program (a binary, 30 libraries, 160 resources; default) or small (4 KiB files, one I/O each)',
  },
  {
    name: 'tarball',
    field: 'tarball',
    arg: 'PATH',
    kind: 'string',
    min: 0,
    max: 0,
    default: null,
    verbs: ['tree'],
    help: 'tree: extract this tarball with tar(1) instead of writing the shape',
  },
  {
    name: 'pause',
    field: 'pause',
    arg: null,
    kind: 'flag',
    min: 0,
    max: 0,
    default: null,
    verbs: ['tree'],
    help: 'tree: after each write phase wait for a line on stdin before deleting (harnesses)',
  },
  {
    name: 'app-files',
    field: 'app_files',
    arg: 'N',
    kind: 'count',
    min: 1,
    max: 100_000,
    default: 200,
    verbs: ['app-start'],
    help: 'app-start --app-mix small: files per program',
  },
  {
    name: 'trace',
    field: 'trace',
    arg: 'PATH',
    kind: 'string',
    min: 0,
    max: 0,
    default: null,
    verbs: ['record'],
    help: 'record: the trace file, appended to (created 0600; a later run resumes it)',
  },
  {
    name: 'seconds',
    field: 'seconds',
    arg: 'SECONDS',
    kind: 'number',
    min: 0,
    max: 400 * 86_400,
    default: 0,
    verbs: ['record'],
    help: 'record: stop after this long; 0: until SIGTERM/SIGINT',
  },
  {
    name: 'merge-ms',
    field: 'merge_ms',
    arg: 'MS',
    kind: 'count',
    min: 0,
    max: 3_600_000,
    default: 1000,
    verbs: ['record'],
    help: "record: a file's reads (or opens, or writes) within this window are one touch; 0: every event",
  },
  // The sustained write (issue "What decides an SSD purchase"): TechPowerUp's 1 MiB at QD1 by
  // default, AnandTech's 128 KiB at QD32 as the option; writes in flight are that many threads
  // taking the next block of one sequential stream, so the drive still sees one sequential write.
  {
    name: 'block',
    field: 'block',
    arg: 'BYTES',
    kind: 'bytes',
    min: 4096,
    max: 64 * 2 ** 20,
    default: 2 ** 20,
    verbs: ['sustained', 'surface'],
    help: 'sustained: bytes per write; surface: bytes per read; a multiple of 4096',
  },
  // The surface of a disk (issue 41 item 3), as GNOME Disks samples it: many short sequential
  // reads spread over the whole device, then random small reads for the access time.
  {
    name: 'samples',
    field: 'samples',
    arg: 'N',
    kind: 'count',
    min: 2,
    max: 10_000,
    default: 100,
    verbs: ['surface'],
    help: 'surface: offsets read, evenly spread from the first to the last byte',
  },
  {
    name: 'sample-bytes',
    field: 'sample_bytes',
    arg: 'BYTES',
    kind: 'bytes',
    min: 4096,
    max: 2 ** 30,
    default: 4 * 2 ** 20,
    verbs: ['surface'],
    help: 'surface: bytes read sequentially at each offset, a multiple of --block',
  },
  {
    name: 'accesses',
    field: 'accesses',
    arg: 'N',
    kind: 'count',
    min: 0,
    max: 100_000,
    default: 100,
    verbs: ['surface'],
    help: 'surface: random 4 KiB reads timed one at a time (the access time); 0: none',
  },
  {
    name: 'depth',
    field: 'depth',
    arg: 'N',
    kind: 'count',
    min: 1,
    max: 64,
    default: 1,
    verbs: ['sustained'],
    help: 'sustained: writes in flight (one thread each, one sequential stream)',
  },
  {
    name: 'recovery-size',
    field: 'recovery_size',
    arg: 'BYTES',
    kind: 'bytes',
    min: 0,
    max: 2 ** 50,
    default: 0,
    verbs: ['sustained'],
    help: 'sustained: bytes written again from the start after --rest, to see the cache come back; 0: none',
  },
];

export function workerOption(name: string, options: readonly WorkerOption[] = WORKER_OPTIONS): WorkerOption | undefined {
  return options.find((o) => o.name === name);
}

/** The options one verb takes, in table order. */
export function optionsOfVerb(verb: WorkerVerb, options: readonly WorkerOption[] = WORKER_OPTIONS): WorkerOption[] {
  return options.filter((o) => o.verbs.includes(verb));
}

/** An option's help line as --help shows it: its help, then its default when it has one. */
export function workerOptionHelp(o: WorkerOption): string {
  return o.default === null ? o.help : `${o.help} (default ${o.default})`;
}

const C_KIND: Record<WorkerOptionKind, string> = {
  string: 'OPT_STRING',
  bytes: 'OPT_BYTES',
  number: 'OPT_NUMBER',
  count: 'OPT_COUNT',
  u64: 'OPT_U64',
  flag: 'OPT_FLAG',
  job: 'OPT_JOB',
};

const cVerb = (verb: string) => `VERB_${verb.toUpperCase().replace(/-/g, '_')}`;
const cString = (s: string | null) => (s === null ? 'NULL' : JSON.stringify(s));
// Whole numbers as C integers (exact up to 2^53 in the double they become), fractions as written.
const cNumber = (n: number) => (Number.isInteger(n) ? `${n}.0` : String(n));

/** native/src/worker-options.h, generated: the verbs and the X-macro table main.c builds OPTIONS[] from. */
export function workerOptionsHeader(options: readonly WorkerOption[] = WORKER_OPTIONS): string {
  const verbs = (o: WorkerOption) => o.verbs.map((v) => `VERB_BIT(${cVerb(v)})`).join(' | ');
  const line = (s: string) => `  ${s} \\`;
  return [
    '// GENERATED from electron/shared/model/worker-options.ts by `npm run gen:worker-options`: do not edit.',
    "// The worker's verbs and options: main.c builds its VERBS[] and OPTIONS[] (and --help) from these.",
    '#ifndef DD_WORKER_OPTIONS_H',
    '#define DD_WORKER_OPTIONS_H',
    '',
    'typedef enum {',
    ...WORKER_VERBS.map((v) => `  ${cVerb(v.name)},`),
    '  VERB_COUNT',
    '} worker_verb_t;',
    '',
    '#define VERB_BIT(v) (1u << (v))',
    '',
    '// X(id, name, help)',
    '#define WORKER_VERBS(X) \\',
    ...WORKER_VERBS.map((v) => line(`X(${cVerb(v.name)}, ${cString(v.name)}, ${cString(v.help)})`)),
    '',
    '',
    '// X(field, name, arg, kind, min, max, default, has_default, verbs, help)',
    '#define WORKER_OPTIONS(X) \\',
    ...options.map((o) =>
      line(
        `X(${o.field}, ${cString(`--${o.name}`)}, ${cString(o.arg)}, ${C_KIND[o.kind]}, ${cNumber(o.min)}, ${cNumber(o.max)}, ` +
          `${cNumber(o.default ?? 0)}, ${o.default === null ? 0 : 1}, ${verbs(o)}, ${cString(workerOptionHelp(o))})`,
      ),
    ),
    '',
    '',
    '#endif',
    '',
  ].join('\n');
}
