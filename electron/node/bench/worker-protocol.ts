// The worker's NDJSON lines (protocol version 1), validated as they arrive: a line that does
// not parse is reported, never trusted.
import { z } from 'zod';

export const PROTOCOL_VERSION = 1;

const latency = z.object({
  mean: z.number(),
  min: z.number(),
  p50: z.number(),
  p90: z.number(),
  p99: z.number(),
  p999: z.number(),
  max: z.number(),
});

/** What a recording has seen so far (record-progress) or in all (record-result). */
const recordCounts = {
  seconds: z.number(),
  events: z.number(),
  records: z.number(),
  /** Distinct files this session. */
  files: z.number(),
  merged: z.number(),
  unopenable: z.number(),
  unsized: z.number(),
  lost: z.number(),
};

export const workerMessageSchema = z.discriminatedUnion('type', [
  z.object({
    v: z.literal(PROTOCOL_VERSION),
    type: z.literal('hello'),
    worker: z.string(),
    version: z.string(),
    pid: z.number(),
    engine: z.string(),
    target: z.string(),
    kind: z.enum(['folder', 'block-device']),
    fs: z.string(),
    file: z.string().nullable(),
    size: z.number(),
    direct: z.boolean(),
    jobs: z.number(),
    /** The threads each job starts (run verb), in job order; absent from other verbs and older workers. */
    threads: z.array(z.number()).optional(),
  }),
  z.object({
    v: z.literal(PROTOCOL_VERSION),
    type: z.literal('progress'),
    phase: z.enum(['prepare', 'warmup', 'measure']),
    job: z.number().optional(),
    jobs: z.number(),
    name: z.string().optional(),
    run: z.number().optional(),
    runs: z.number().optional(),
    elapsed_ns: z.number().optional(),
    planned_ns: z.number().optional(),
    done_bytes: z.number().optional(),
    total_bytes: z.number().optional(),
  }),
  z.object({
    v: z.literal(PROTOCOL_VERSION),
    type: z.literal('sample'),
    job: z.number(),
    name: z.string(),
    run: z.number(),
    t_ms: z.number(),
    bytes_per_sec: z.number(),
    iops: z.number(),
  }),
  z.object({
    v: z.literal(PROTOCOL_VERSION),
    type: z.literal('result'),
    job: z.number(),
    name: z.string(),
    run: z.number(),
    rw: z.string(),
    bs: z.number(),
    qd: z.number(),
    threads: z.number(),
    read_pct: z.number().optional(),
    span_mib: z.number().optional(),
    engine: z.string(),
    direct: z.boolean(),
    elapsed_ns: z.number(),
    ios: z.number(),
    bytes: z.number(),
    reads: z.number(),
    writes: z.number(),
    bytes_per_sec: z.number(),
    iops: z.number(),
    lat_ns: latency,
    hist: z.array(z.tuple([z.number(), z.number()])),
    cpu: z.object({ user_ns: z.number(), sys_ns: z.number() }),
    /** The median's interval over the runs so far (relative half-width), from the second run on. */
    ci_relative: z.number().optional(),
    /** The job's seconds so far, warm-up included, in ns. */
    job_ns: z.number(),
    /** On the job's last run: why it stopped. */
    stop: z.enum(['precision', 'max-time', 'runs', 'steady']).optional(),
  }),
  z.object({ v: z.literal(PROTOCOL_VERSION), type: z.literal('warning'), code: z.string(), message: z.string() }),
  z.object({ v: z.literal(PROTOCOL_VERSION), type: z.literal('error'), code: z.string(), message: z.string() }),
  z.object({ v: z.literal(PROTOCOL_VERSION), type: z.literal('done'), status: z.string(), exit_code: z.number() }),
  z.object({ v: z.literal(PROTOCOL_VERSION), type: z.literal('prepared'), file: z.string(), size: z.number() }),
  z.object({ v: z.literal(PROTOCOL_VERSION), type: z.literal('cleaned'), removed: z.number() }),
  // --helper: the privileged helper started (its pid) and exited, before any measuring.
  z.object({
    v: z.literal(PROTOCOL_VERSION),
    type: z.literal('helper'),
    state: z.enum(['started', 'exited']),
    pid: z.number(),
    exit_code: z.number().optional(),
    signal: z.number().optional(),
  }),
  // Workloads (tree, bigfile, app-start): what is about to be written or read, once.
  z.object({
    v: z.literal(PROTOCOL_VERSION),
    type: z.literal('workload'),
    workload: z.enum(['tree', 'bigfile', 'app-start']),
    /** tree: the release whose shape is written (assets/workloads/), and whether it was scaled. */
    shape: z.string().optional(),
    scaled: z.boolean().optional(),
    /** tree: "tarball" when the user's own tarball was extracted (shape is then its file name). */
    source: z.literal('tarball').optional(),
    /** app-start: the file-size mix and how many programs start at once. */
    mix: z.enum(['program', 'small']).optional(),
    readers: z.number().optional(),
    files: z.number(),
    bytes: z.number(),
    dirs: z.number().optional(),
  }),
  // One timed phase of one pass (run 0: a warm-up pass), in seconds; syncfs included.
  z.object({
    v: z.literal(PROTOCOL_VERSION),
    type: z.literal('phase'),
    workload: z.enum(['tree', 'bigfile', 'app-start']),
    phase: z.enum(['write', 'delete', 'start']),
    run: z.number(),
    warmup: z.boolean(),
    seconds: z.number(),
    sync_seconds: z.number(),
    /** app-start: the slowest program's end minus the fastest's. */
    spread_seconds: z.number().optional(),
    files: z.number(),
    bytes: z.number(),
    /** app-start: how the cache was emptied (drop-caches as root, through the helper, or fadvise of its own files only). */
    cold: z.enum(['drop-caches', 'helper-drop-caches', 'fadvise']).optional(),
  }),
  // `hold`: the descriptor is open and served on this socket (--fd-from) until stdin closes.
  // `crypt-hold` adds the mapping (device) and the loop beneath it, served on raw_socket.
  z.object({
    v: z.literal(PROTOCOL_VERSION),
    type: z.literal('holding'),
    socket: z.string(),
    device: z.string().optional(),
    raw_socket: z.string().optional(),
    raw_device: z.string().optional(),
  }),
  // `working-set` (native/src/working-set.c): the walk's start, progress, what it did not walk,
  // one line per child folder (bytes by whole days since last touched, sparse), the totals.
  z.object({
    v: z.literal(PROTOCOL_VERSION),
    type: z.literal('scan-start'),
    target: z.string(),
    now_ms: z.number(),
    days: z.number().int().min(366),
    dev_major: z.number(),
    dev_minor: z.number(),
    mnt_id: z.number().optional(),
  }),
  z.object({ v: z.literal(PROTOCOL_VERSION), type: z.literal('scan-progress'), files: z.number(), dirs: z.number(), bytes: z.number() }),
  z.object({
    v: z.literal(PROTOCOL_VERSION),
    type: z.literal('scan-skip'),
    path: z.string(),
    reason: z.enum(['other-mount', 'unreadable', 'too-deep']),
    errno: z.string().optional(),
    dev_major: z.number().optional(),
    dev_minor: z.number().optional(),
    mnt_id: z.number().optional(),
  }),
  z.object({
    v: z.literal(PROTOCOL_VERSION),
    type: z.literal('scan-folder'),
    name: z.string(),
    files: z.number(),
    apparent: z.number(),
    allocated: z.number(),
    touched: z.array(z.tuple([z.number().int().min(0), z.number()])),
    written: z.array(z.tuple([z.number().int().min(0), z.number()])),
  }),
  z.object({
    v: z.literal(PROTOCOL_VERSION),
    type: z.literal('scan-result'),
    files: z.number(),
    dirs: z.number(),
    other: z.number(),
    links_skipped: z.number(),
    future: z.number(),
    /** Entries listed, then removed before the walk could look at them: not counted. */
    vanished: z.number(),
  }),
  // The `record` verb (native/src/access-recorder.c): the accesses themselves go to its trace file.
  z.object({
    v: z.literal(PROTOCOL_VERSION),
    type: z.literal('record-start'),
    trace: z.string(),
    fsid: z.string(),
    resumed: z.boolean(),
    started_ms: z.number(),
    /** helper: the helper's records (files the user may look up, anywhere on the filesystem); descriptors: root's own group. */
    group: z.enum(['helper', 'descriptors']),
    fd_error: z.boolean().optional(),
  }),
  z.object({ v: z.literal(PROTOCOL_VERSION), type: z.literal('record-progress'), ...recordCounts }),
  z.object({ v: z.literal(PROTOCOL_VERSION), type: z.literal('record-result'), why: z.enum(['signal', 'time-limit']), ...recordCounts }),
  // `sustained` (native/src/sustained.c): one line per interval of a stream ("fill", then
  // "recovery" after the rest), bytes completed so far in that stream; one line per stream at
  // its end, also when a stop signal cut it short (complete false), so what was measured is kept.
  z.object({
    v: z.literal(PROTOCOL_VERSION),
    type: z.literal('sustained-sample'),
    phase: z.enum(['fill', 'recovery']),
    t_ms: z.number(),
    bytes: z.number(),
    interval_bytes: z.number(),
    interval_ns: z.number(),
    /** ns the worker's threads waited, runnable, for a CPU over the interval (absent: the kernel keeps no schedstat, or an older worker). */
    cpu_wait_ns: z.number().optional(),
  }),
  z.object({
    v: z.literal(PROTOCOL_VERSION),
    type: z.literal('sustained-phase'),
    phase: z.enum(['fill', 'recovery']),
    bytes: z.number(),
    planned_bytes: z.number(),
    elapsed_ns: z.number(),
    ios: z.number(),
    block: z.number(),
    depth: z.number(),
    lat_mean_ns: z.number(),
    lat_max_ns: z.number(),
    /** The idle time before this stream (recovery), ns; 0 for the fill. */
    rest_ns: z.number(),
    /** The worker's CPU time over the stream (every writer's), ns. */
    user_ns: z.number(),
    sys_ns: z.number(),
    complete: z.boolean(),
  }),
  // `surface` (native/src/surface.c): one line per offset, with the time of each --block read
  // in order, and one per random 4 KiB read (the access time).
  z.object({
    v: z.literal(PROTOCOL_VERSION),
    type: z.literal('surface-sample'),
    index: z.number().int().min(0),
    offset: z.number().min(0),
    bytes: z.number().positive(),
    ns: z.number().positive(),
    read_ns: z.array(z.number().positive()).min(1),
  }),
  z.object({
    v: z.literal(PROTOCOL_VERSION),
    type: z.literal('surface-access'),
    offset: z.number().min(0),
    bytes: z.number().positive(),
    ns: z.number().positive(),
  }),
]);

export type WorkerMessage = z.infer<typeof workerMessageSchema>;
export type WorkerResult = Extract<WorkerMessage, { type: 'result' }>;

export function parseWorkerLine(line: string): WorkerMessage | { invalid: string } {
  let json: unknown;
  try {
    json = JSON.parse(line);
  } catch {
    return { invalid: `not JSON: ${line.slice(0, 120)}` };
  }
  const parsed = workerMessageSchema.safeParse(json);
  return parsed.success ? parsed.data : { invalid: `unexpected message: ${line.slice(0, 120)}` };
}
