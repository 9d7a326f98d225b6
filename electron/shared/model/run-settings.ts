// THE table of run settings (fio's options.c is the model): what a run may set beside its target
// and tests, each once with its label, help, unit, range, default and which measurement kinds
// take it. From it come the BenchSpec and plan schemas (bench/spec.ts, kinds/), the CLI's flags
// and their --help (cli/commands/run.ts), the New run form's fields (renderer view/new-run-form.ts),
// the stored RunSettings (results.ts), the presets' check and the worker argv (bench/worker-argv.ts).
// A setting the worker takes names its worker option and shares that option's range
// (worker-options.ts, from which the C header is generated): the ranges are one list.
//
// Pure data and functions: the renderer bundles this module.
import { z } from 'zod';
import { workerOption, WORKER_OPTIONS, type WorkerOption } from './worker-options.ts';

/** How a value is written and read: the CLI parses by it, the form shows it, help names it. */
export type SettingUnit = 'bytes' | 'seconds' | 'count' | 'fraction' | 'flag';

export interface RunSettingDef {
  /** The field of BenchSpec, of a kind's plan and of the stored RunSettings. */
  key: string;
  /** As a person reads it next to a field: "Seconds per test". */
  label: string;
  /** One line for --help. */
  help: string;
  unit: SettingUnit;
  /** Whole numbers only (counts, bytes). */
  integer?: boolean;
  /** The worker option it becomes (worker-options.ts); its range is this setting's. */
  worker?: string;
  /** A range of its own (no worker option), or a narrower one than the worker's, with why. */
  min?: number;
  max?: number;
  narrower?: string;
  /**
   * 0 is a value of its own (a rating not given, no recovery stream), and this is what it means;
   * every other value lies in the range. A size just above 0 is never meant: `--rated-endurance 1B`
   * was taken as a drive rated for one byte ("6,710,886,400 % of its endurance").
   */
  zero?: string;
  /** Used when neither the spec nor the preset gives a value. */
  default: number | boolean;
  /** The measurement kinds (bench/kinds) whose plans take it. */
  kinds: readonly string[];
  /** The CLI flag (without dashes) and its value's placeholder. */
  flag: string;
  arg?: string;
  /**
   * A field of the New run form, shown for the presets whose tests' kinds take the setting;
   * `scale` turns the typed number into the raw unit (MiB → bytes); `placeholder` stands for a
   * default that means "not given" (a rating the drive does not report).
   */
  form?: { label: string; scale?: number; placeholder?: string };
}

const MiB = 2 ** 20;

/** In the order --help and the form list them. */
export const RUN_SETTINGS = [
  {
    key: 'sizeBytes',
    label: 'Test file size',
    help: "test file size, e.g. 256MiB, 1GiB, 1G (default: the preset's, 1 GiB)",
    unit: 'bytes',
    integer: true,
    worker: 'size',
    min: 16 * MiB,
    narrower: 'a test file under 16 MiB measures the caches, not the disk (the worker takes 1 MiB for its own tests)',
    default: 1024 * MiB,
    kinds: ['rate', 'workload'],
    flag: 'size',
    arg: 'SIZE',
    form: { label: 'Test file size (MiB)', scale: MiB },
  },
  {
    key: 'durationSec',
    label: 'Seconds per test',
    help: "timed window of each run, e.g. 1.5, 5s (default: the preset's)",
    unit: 'seconds',
    worker: 'duration',
    default: 5,
    kinds: ['rate'],
    flag: 'duration',
    arg: 'SECONDS',
    form: { label: 'Seconds per test' },
  },
  {
    key: 'warmupSec',
    label: 'Warm-up seconds',
    help: "untimed I/O before each test (default: the preset's)",
    unit: 'seconds',
    worker: 'warmup',
    default: 1,
    kinds: ['rate'],
    flag: 'warmup',
    arg: 'SECONDS',
  },
  {
    key: 'pauseSec',
    label: 'Pause between tests',
    help: "idle seconds between tests, for flash memory to empty its cache (default: the preset's, 0; flash: 30)",
    unit: 'seconds',
    worker: 'rest',
    default: 0,
    kinds: ['rate'],
    flag: 'pause',
    arg: 'SECONDS',
  },
  {
    key: 'runs',
    label: 'Runs',
    help:
      'timed runs per test; the median is reported. Given alone, exactly N runs\n' +
      '(CrystalDiskMark: --runs 5 --duration 5); with --precision, the fewest',
    unit: 'count',
    integer: true,
    worker: 'runs',
    default: 1,
    kinds: ['rate', 'workload'],
    flag: 'runs',
    arg: 'N',
    form: { label: 'Runs' },
  },
  {
    key: 'precision',
    label: 'Precision',
    help: "add runs until the median's 95 % interval is within ±PCT, e.g. 2%\n(standard and full: 2%; 0 for a fixed count of runs)",
    unit: 'fraction',
    worker: 'precision',
    default: 0,
    kinds: ['rate'],
    flag: 'precision',
    arg: 'PCT',
  },
  {
    key: 'maxTimeSec',
    label: 'Most seconds per test',
    help: "with --precision: the most timed seconds per test (default: the preset's, 1.2 s)",
    unit: 'seconds',
    worker: 'max-time',
    min: 0.2,
    narrower: "a run always asks for a limit (the worker's 0, none, is for harnesses), and one under a window stops after the first run",
    default: 1.2,
    kinds: ['rate'],
    flag: 'max-time',
    arg: 'SECONDS',
  },
  {
    key: 'readOnly',
    label: 'Read-only (write nothing)',
    help:
      'write nothing at all, for worn or precious drives: the write tests of a preset are skipped,\n' +
      'named ones refused; the target must be a block device (a folder needs a test file written)',
    unit: 'flag',
    worker: 'read-only',
    default: false,
    kinds: ['rate'],
    flag: 'read-only',
  },
  {
    key: 'buffered',
    label: 'Page-cache I/O',
    help: 'allow page-cache I/O where O_DIRECT is impossible (tmpfs); flagged',
    unit: 'flag',
    worker: 'buffered',
    default: false,
    kinds: ['rate'],
    flag: 'buffered',
  },
  // The sustained write (kinds/sustained-write.ts): how far past the cache, how, and the rest
  // after which it looks how much of the cache came back.
  {
    key: 'sustainedSpanBytes',
    label: 'Sustained write: bytes to write',
    help:
      "bytes the sustained write writes in one stream, e.g. 64GiB; past the drive's fast cache,\n" +
      "at most the free space of the target's filesystem (default 16 GiB)",
    unit: 'bytes',
    integer: true,
    worker: 'size',
    min: 64 * MiB,
    narrower: 'a span under 64 MiB ends inside any cache a drive has: there is nothing past it to find',
    default: 16 * 1024 * MiB,
    kinds: ['sustained-write'],
    flag: 'sustained-span',
    arg: 'SIZE',
    form: { label: 'Bytes to write (MiB)', scale: MiB },
  },
  {
    key: 'sustainedBlockBytes',
    label: 'Sustained write: block size',
    help: 'bytes per write of the sustained write: 1MiB (TechPowerUp, default) or 128KiB with --sustained-qd 32 (AnandTech)',
    unit: 'bytes',
    integer: true,
    worker: 'block',
    default: MiB,
    kinds: ['sustained-write'],
    flag: 'sustained-block',
    arg: 'SIZE',
    form: { label: 'Block size (KiB)', scale: 1024 },
  },
  {
    key: 'sustainedDepth',
    label: 'Sustained write: writes in flight',
    help: 'writes in flight of the sustained write (default 1: QD1)',
    unit: 'count',
    integer: true,
    worker: 'depth',
    default: 1,
    kinds: ['sustained-write'],
    flag: 'sustained-qd',
    arg: 'N',
    form: { label: 'Writes in flight (queue depth)' },
  },
  {
    key: 'sustainedRestSec',
    label: 'Sustained write: rest before the recovery',
    help: 'idle seconds after the stream, before the recovery stream shows how much cache came back (default 30)',
    unit: 'seconds',
    worker: 'rest',
    default: 30,
    kinds: ['sustained-write'],
    flag: 'sustained-rest',
    arg: 'SECONDS',
    form: { label: 'Rest before writing again (s)' },
  },
  {
    key: 'sustainedRecoveryBytes',
    label: 'Sustained write: bytes after the rest',
    help: 'bytes written again after the rest (at most the span; 0: no recovery), e.g. 4GiB (default 4 GiB)',
    unit: 'bytes',
    integer: true,
    worker: 'recovery-size',
    // 16 MiB, not more: the lab's QEMU burst caches are a few MiB and its recovery 40 MiB; a few
    // bytes (#38 item 12: '1B') time nothing at all.
    min: 16 * MiB,
    narrower: 'a recovery stream under 16 MiB is over before it can be timed (0: no recovery stream)',
    zero: 'no recovery stream',
    default: 4 * 1024 * MiB,
    kinds: ['sustained-write'],
    flag: 'sustained-recovery',
    arg: 'SIZE',
    form: { label: 'Written again after the rest (MiB)', scale: MiB },
  },
  // No drive reports its rated endurance (TBW) to the kernel, so the share of it a sustained
  // write uses is said only when the person gives the rating from the data sheet. Not a worker
  // option: it changes only the cost said before the run. 0: not given. Up to 100 PB, as data
  // centre drives are rated (a 4 TB consumer drive is 2.4 PB); bytes, but not whole bytes
  // required (a rating is a round decimal figure, and 100 PB is past exact integers).
  {
    key: 'ratedEnduranceBytes',
    label: 'Rated endurance',
    help:
      "the drive's rated write endurance (TBW on its data sheet), e.g. 600TB: the sustained write's\n" +
      'warning then says what share of it the run writes (default: not known; no drive reports it)',
    unit: 'bytes',
    // The smallest SSDs (120 GB) are rated for tens of TB written: a rating under 1 TB is a typo.
    min: 1e12,
    zero: 'not known',
    max: 100e15,
    default: 0,
    kinds: ['sustained-write'],
    flag: 'rated-endurance',
    arg: 'SIZE',
    form: { label: 'Rated endurance (TB)', scale: 1e12, placeholder: 'not known, e.g. 600' },
  },
  // The surface of a disk (issue 41 item 3): GNOME Disks reads 100 offsets; the whole device is
  // read at each offset for sampleBytes, so the cost is samples × sampleBytes, never the disk.
  {
    key: 'surfaceSamples',
    label: 'Surface: offsets read',
    help: 'surface: offsets read, evenly spread from the first byte to the last (default 100)',
    unit: 'count',
    integer: true,
    worker: 'samples',
    // 6: the fewest that can hold two zones of three samples each.
    min: 6,
    narrower: 'fewer than 6 offsets cannot show two zones of three samples each',
    default: 100,
    kinds: ['surface'],
    form: { label: 'Offsets read across the device' },
    flag: 'samples',
    arg: 'N',
  },
  {
    key: 'surfaceSampleBytes',
    label: 'Surface: bytes read at each offset',
    help: 'surface: bytes read sequentially at each offset, a multiple of 4 KiB, e.g. 4MiB (default 4 MiB)',
    unit: 'bytes',
    integer: true,
    worker: 'sample-bytes',
    default: 4 * MiB,
    kinds: ['surface'],
    form: { label: 'Read at each offset (MiB)', scale: MiB },
    flag: 'sample-bytes',
    arg: 'SIZE',
  },
  {
    key: 'surfaceAccesses',
    label: 'Surface: random reads for the access time',
    help: 'surface: random 4 KiB reads timed one at a time for the access time; 0: none (default 100)',
    unit: 'count',
    integer: true,
    worker: 'accesses',
    default: 100,
    kinds: ['surface'],
    form: { label: 'Random reads for the access time' },
    flag: 'accesses',
    arg: 'N',
  },
] as const satisfies readonly RunSettingDef[];

type Defs = typeof RUN_SETTINGS;
export type RunSettingKey = Defs[number]['key'];
type ValueOf<D> = D extends { unit: 'flag' } ? boolean : number;
/** Every setting's value, by key: what a kind's plan holds once resolved. */
export type RunSettingValues = { [D in Defs[number] as D['key']]: ValueOf<D> };

type TakenBy<D, K> = D extends { kinds: readonly (infer Kinds)[] } ? (K extends Kinds ? D : never) : never;
/** The table's rows of the settings a measurement kind takes. */
type DefsOfKind<K extends string> = TakenBy<Defs[number], K>;
/** The keys of the settings a measurement kind takes: the table's `kinds` say it, nothing else. */
export type KindSettingKey<K extends string> = DefsOfKind<K>['key'];
/** The resolved values of the settings a kind takes: the part of its plan the table makes. */
export type KindSettingValues<K extends string> = Pick<RunSettingValues, KindSettingKey<K>>;

export interface SettingRange {
  min: number;
  max: number;
}

/** A setting's range: its worker option's, or its own narrower one (checked to lie within it). */
export function settingRange(def: RunSettingDef, options: readonly WorkerOption[] = WORKER_OPTIONS): SettingRange {
  const option = def.worker ? workerOption(def.worker, options) : undefined;
  if (def.worker && !option) throw new Error(`run setting ${def.key}: the worker has no option --${def.worker}`);
  return { min: def.min ?? option?.min ?? 0, max: def.max ?? option?.max ?? Number.MAX_SAFE_INTEGER };
}

/** One value in words with its unit: "0.2 s", "16 MiB", "600 TB", "2 %". */
export function valueText(def: RunSettingDef, n: number): string {
  if (def.unit === 'seconds') return `${n} s`;
  if (def.unit === 'fraction') return `${n * 100} %`;
  if (def.unit === 'bytes') return bytesText(n);
  return String(n);
}

/** The range in words with its unit: "0.2 s to 3600 s", "16 MiB to 1 PiB", "1 TB to 100 PB, or 0 (not known)". */
export function rangeText(def: RunSettingDef, options: readonly WorkerOption[] = WORKER_OPTIONS): string {
  const { min, max } = settingRange(def, options);
  return `${valueText(def, min)} to ${valueText(def, max)}${def.zero ? `, or 0 (${def.zero})` : ''}`;
}

/** Whether a value is one the setting takes: in its range, or its own 0. */
export function inRange(def: RunSettingDef, value: number, options: readonly WorkerOption[] = WORKER_OPTIONS): boolean {
  const { min, max } = settingRange(def, options);
  return (value === 0 && def.zero !== undefined) || (value >= min && value <= max);
}

function bytesText(n: number): string {
  // A decimal figure as a drive's box gives it (a rated endurance of 600 TB) first: no power of
  // two is a multiple of 10^12, but 10^12 is one of 1024 (it would read "976562500 KiB").
  for (const [unit, size] of [
    ['PB', 1e15],
    ['TB', 1e12],
  ] as const)
    if (n >= size && n % size === 0) return `${n / size} ${unit}`;
  for (const [unit, size] of [
    ['PiB', 2 ** 50],
    ['TiB', 2 ** 40],
    ['GiB', 2 ** 30],
    ['MiB', 2 ** 20],
    ['KiB', 2 ** 10],
  ] as const)
    if (n >= size && n % size === 0) return `${n / size} ${unit}`;
  return `${n} bytes`;
}

/** One setting's zod schema: a boolean, or a number in its range. */
export function settingSchema(def: RunSettingDef, options: readonly WorkerOption[] = WORKER_OPTIONS): z.ZodBoolean | z.ZodNumber {
  if (def.unit === 'flag') return z.boolean();
  const { min, max } = settingRange(def, options);
  const n = def.integer ? z.number().int() : z.number();
  if (def.zero)
    return n
      .min(0)
      .max(max)
      .refine((v) => inRange(def, v, options), { message: `use ${rangeText(def, options)}` });
  return n.min(min).max(max);
}

type SpecShape = { [D in Defs[number] as D['key']]: z.ZodOptional<D extends { unit: 'flag' } ? z.ZodBoolean : z.ZodNumber> };
type PlanShape = { [D in Defs[number] as D['key']]: D extends { unit: 'flag' } ? z.ZodBoolean : z.ZodNumber };

/** The settings' part of a BenchSpec: every setting, optional. */
export function specSettingsShape(settings?: typeof RUN_SETTINGS, options?: readonly WorkerOption[]): SpecShape;
export function specSettingsShape(settings: readonly RunSettingDef[], options?: readonly WorkerOption[]): Record<string, z.ZodTypeAny>;
export function specSettingsShape(settings: readonly RunSettingDef[] = RUN_SETTINGS, options: readonly WorkerOption[] = WORKER_OPTIONS) {
  return Object.fromEntries(settings.map((d) => [d.key, settingSchema(d, options).optional()]));
}

/** The settings' part of a kind's plan: those the kind takes, required (resolved). */
export function planSettingsShape<K extends string>(kind: K): Pick<PlanShape, KindSettingKey<K>>;
export function planSettingsShape(
  kind: string,
  settings: readonly RunSettingDef[],
  options?: readonly WorkerOption[],
): Record<string, z.ZodTypeAny>;
export function planSettingsShape(
  kind: string,
  settings: readonly RunSettingDef[] = RUN_SETTINGS,
  options: readonly WorkerOption[] = WORKER_OPTIONS,
) {
  return Object.fromEntries(settingsOfKind(kind, settings).map((d) => [d.key, settingSchema(d, options)]));
}

export function settingsOfKind<D extends RunSettingDef>(kind: string, settings: readonly D[]): D[];
export function settingsOfKind<K extends string>(kind: K): Array<DefsOfKind<K>>;
export function settingsOfKind(kind: string, settings: readonly RunSettingDef[] = RUN_SETTINGS) {
  return settings.filter((d) => d.kinds.includes(kind));
}

type StoredShape = {
  [D in Defs[number] as D['key']]: z.ZodOptional<D extends { unit: 'flag' } ? z.ZodBoolean : z.ZodNumber>;
};

/** The stored RunSettings' part from the table: every setting, optional, non-negative (imports are not range-checked). */
export function storedSettingsShape(settings?: typeof RUN_SETTINGS): StoredShape;
export function storedSettingsShape(settings: readonly RunSettingDef[]): Record<string, z.ZodTypeAny>;
export function storedSettingsShape(settings: readonly RunSettingDef[] = RUN_SETTINGS) {
  return Object.fromEntries(settings.map((d) => [d.key, (d.unit === 'flag' ? z.boolean() : z.number().nonnegative()).optional()]));
}

/**
 * A value for each setting a kind takes: the spec's, else the preset's, else the table's default.
 * Kinds then apply their own rules on top (rate: an explicit --runs means a fixed count).
 */
export function resolveSettings<K extends string>(
  kind: K,
  spec: Record<string, unknown>,
  preset: Record<string, unknown>,
): KindSettingValues<K>;
export function resolveSettings(
  kind: string,
  spec: Record<string, unknown>,
  preset: Record<string, unknown>,
  settings: readonly RunSettingDef[],
): Record<string, number | boolean>;
export function resolveSettings(
  kind: string,
  spec: Record<string, unknown>,
  preset: Record<string, unknown>,
  settings: readonly RunSettingDef[] = RUN_SETTINGS,
): Record<string, number | boolean> {
  return Object.fromEntries(
    settingsOfKind(kind, settings).map((d) => [d.key, (spec[d.key] ?? preset[d.key] ?? d.default) as number | boolean]),
  );
}

/** What is wrong with a preset's values for the settings its tests' kinds take; [] when nothing. */
export function presetProblems(
  preset: Record<string, unknown>,
  kinds: readonly string[],
  settings: readonly RunSettingDef[] = RUN_SETTINGS,
  options: readonly WorkerOption[] = WORKER_OPTIONS,
): string[] {
  return settings
    .filter((d) => d.kinds.some((k) => kinds.includes(k)) && preset[d.key] !== undefined)
    .flatMap((d) => {
      const checked = settingSchema(d, options).safeParse(preset[d.key]);
      return checked.success ? [] : [`${d.key} ${String(preset[d.key])}: use ${rangeText(d, options)}`];
    });
}
