// The run settings' CLI flags, their --help lines and their parsing, from the one table
// (shared/model/run-settings.ts): a setting added there is a flag of `diskdelta run` with no edit here.
import { inRange, rangeText, RUN_SETTINGS, settingRange, valueText, type RunSettingDef } from '../shared/model/run-settings.ts';
import { WORKER_OPTIONS, type WorkerOption } from '../shared/model/worker-options.ts';
import { MAX_SIZE_BYTES, parseCount, parseDuration, parseDurationOrZero, parseSize, UsageError } from './args.ts';

/** Where a flag's help starts: "  --duration SECONDS   timed window …". */
const HELP_COLUMN = 23;

/** The parseArgs options of the settings' flags. */
export function settingFlags(settings: readonly RunSettingDef[] = RUN_SETTINGS): Record<string, { type: 'string' | 'boolean' }> {
  return Object.fromEntries(settings.map((d) => [d.flag, { type: d.unit === 'flag' ? 'boolean' : 'string' }]));
}

/** The settings' lines of `diskdelta run --help`, each flag with its help (continuations aligned). */
export function settingsHelp(settings: readonly RunSettingDef[] = RUN_SETTINGS): string {
  return settings
    .map((d) => {
      const head = `  --${d.flag}${d.arg ? ` ${d.arg}` : ''}`;
      const [first, ...rest] = d.help.split('\n');
      return [`${head.padEnd(HELP_COLUMN - 1)} ${first}`, ...rest.map((l) => `${' '.repeat(HELP_COLUMN)}${l}`)].join('\n');
    })
    .join('\n');
}

/** One flag's text → the setting's value in raw units, in its range, or a UsageError naming the flag. */
export function parseSetting(d: RunSettingDef, text: string, options: readonly WorkerOption[] = WORKER_OPTIONS): number {
  const flag = `--${d.flag}`;
  const { min, max } = settingRange(d, options);
  const range = rangeText(d, options);
  let value: number;
  switch (d.unit) {
    case 'bytes':
      // A rating past 1 PiB (a drive's rated endurance) is a size too: the setting's own range
      // decides. 0 where the range starts at 0 (--sustained-recovery 0: no recovery stream).
      value = parseSize(text, flag, {
        max: max > MAX_SIZE_BYTES ? { bytes: max, text: valueText(d, max) } : undefined,
        zero: min === 0 || d.zero !== undefined,
      });
      if (value === 0 && d.zero !== undefined) return 0;
      if (value < min) throw new UsageError(`${flag} '${text}' is too small: use ${range}`);
      break;
    case 'seconds':
      value = min === 0 ? parseDurationOrZero(text, flag) : parseDuration(text, flag);
      break;
    case 'count':
      return parseCount(text, flag, min, max);
    case 'fraction': {
      const m = /^\s*(\d+(?:\.\d+)?)\s*%?\s*$/.exec(text);
      const pct = m ? Number(m[1]) : Number.NaN;
      if (!(pct >= min * 100 && pct <= max * 100))
        throw new UsageError(`${flag} '${text}' is not a percentage from ${min * 100} to ${max * 100}, e.g. 2%`);
      return pct / 100;
    }
    case 'flag':
      throw new Error(`${flag} is a flag: it has no value to parse`);
  }
  if (!inRange(d, value, options)) throw new UsageError(`${flag} '${text}' is out of range: use ${range}`);
  return value;
}

/**
 * A flag of another command that means what a run setting means (`fleet run --size`): parsed by
 * that setting's unit and range, so `--size 1B` is refused there as it is by `run`.
 */
export function parseSettingOf(key: string, text: string): number {
  const def = RUN_SETTINGS.find((d) => d.key === key);
  if (!def) throw new Error(`no run setting ${key}`);
  return parseSetting(def, text);
}

/** The flags given → the spec's settings (absent flags stay absent: the preset's value applies). */
export function settingsFromFlags(
  values: Record<string, string | boolean | string[] | undefined>,
  settings: readonly RunSettingDef[] = RUN_SETTINGS,
  options: readonly WorkerOption[] = WORKER_OPTIONS,
): Record<string, number | boolean> {
  const out: Record<string, number | boolean> = {};
  for (const d of settings) {
    const given = values[d.flag];
    if (given === undefined) continue;
    if (d.unit === 'flag') {
      if (given === true) out[d.key] = true;
    } else if (typeof given === 'string') out[d.key] = parseSetting(d, given, options);
  }
  return out;
}
