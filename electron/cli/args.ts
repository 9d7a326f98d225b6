// Flag parsing shared by every subcommand. Errors are UsageError so that main() maps them
// to exit code 2 with a message that names the bad flag or value.
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { exitCodeOf } from '../shared/model/failures.ts';

// From the one list of exit codes (shared/model/failures.ts), which --help prints.
export const EXIT_OK = 0;
export const EXIT_FAILURE = exitCodeOf('internal');
export const EXIT_USAGE = exitCodeOf('usage');

export class UsageError extends Error {
  override name = 'UsageError';
}

/** One subcommand's module; its name, synopsis and summary are in commands/index.ts. */
export interface CliCommand {
  /** The text of `diskdelta NAME --help`; main() prints it, commands never see --help. */
  help: string;
  run(argv: string[]): Promise<number>;
}

type Options = NonNullable<ParseArgsConfig['options']>;

/** node:util parseArgs, with its errors turned into UsageError that name the flag. */
export function parseFlags<T extends Options>(argv: string[], options: T, allowPositionals = false) {
  try {
    return parseArgs({ args: argv, options, allowPositionals, strict: true });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new UsageError(message.replace(/\. To specify a positional argument.*$/s, ''));
  }
}

const SIZE_UNITS: Record<string, number> = {
  '': 1,
  b: 1,
  k: 1024,
  kb: 1000,
  kib: 1024,
  m: 1024 ** 2,
  mb: 1000 ** 2,
  mib: 1024 ** 2,
  g: 1024 ** 3,
  gb: 1000 ** 3,
  gib: 1024 ** 3,
  t: 1024 ** 4,
  tb: 1000 ** 4,
  tib: 1024 ** 4,
  // A drive's rated endurance is given in PB too (2.4PB).
  p: 1024 ** 5,
  pb: 1000 ** 5,
  pib: 1024 ** 5,
};

/**
 * "256MiB", "1GiB", "1G", "512M", "1.5GB", "4096". A bare letter (K, M, G, T) is binary, as in
 * fio and dd; "MB"/"GB" are decimal, "MiB"/"GiB" binary.
 */
export function parseSize(text: string, flag: string, opts: { max?: { bytes: number; text: string }; zero?: boolean } = {}): number {
  const max = opts.max ?? MAX_SIZE;
  const match = /^\s*(\d+(?:\.\d+)?)\s*([a-z]*)\s*$/i.exec(text);
  const unit = match ? SIZE_UNITS[match[2]!.toLowerCase()] : undefined;
  if (!match || unit === undefined) {
    throw new UsageError(`${flag} '${text}' is not a size: write a number with an optional unit, e.g. 256MiB, 1GiB, 1G, 500MB`);
  }
  const bytes = Math.round(Number(match[1]) * unit);
  if (bytes === 0 && opts.zero) return 0;
  if (!Number.isFinite(bytes) || bytes <= 0) throw new UsageError(`${flag} '${text}' must be larger than zero`);
  // Beyond 2^53 the byte count is no longer exact; no disk is that large anyway.
  if (bytes > max.bytes) throw new UsageError(`${flag} '${text}' is too large: use at most ${max.text}`);
  return bytes;
}

export const MAX_SIZE_BYTES = 2 ** 50;
const MAX_SIZE = { bytes: MAX_SIZE_BYTES, text: '1PiB' };

/**
 * A calendar date "YYYY-MM-DD" that exists: "2026-13-01", "2026-01-32" and "2026-02-30" are
 * refused with the reason (never rolled over to the next month, never a RangeError).
 */
export function parseDate(text: string, flag: string): string {
  const date = text.trim();
  const usage = `write YYYY-MM-DD, e.g. 2026-01-31`;
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!match) throw new UsageError(`${flag} '${text}' is not a date: ${usage}`);
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (month < 1 || month > 12) throw new UsageError(`${flag} '${text}' is not a date: there is no month ${match[2]}; ${usage}`);
  // Day 0 of the next month is the last day of this one.
  const days = new Date(Date.UTC(2000, month, 0)).getUTCDate() - (month === 2 && !isLeapYear(year) ? 1 : 0);
  if (day < 1 || day > days) {
    throw new UsageError(`${flag} '${text}' is not a date: ${MONTHS[month - 1]} ${year} has days 01 to ${days}; ${usage}`);
  }
  return date;
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const isLeapYear = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;

/** "5", "5s", "1.5s", "500ms", "2m" → seconds. */
export function parseDuration(text: string, flag: string): number {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m)?\s*$/i.exec(text);
  if (!match) {
    throw new UsageError(`${flag} '${text}' is not a duration: write seconds, e.g. 5, 1.5s, 500ms, 2m`);
  }
  const factor = { ms: 0.001, s: 1, m: 60 }[(match[2] ?? 's').toLowerCase() as 'ms' | 's' | 'm'];
  const seconds = Number(match[1]) * factor;
  if (!(seconds > 0)) throw new UsageError(`${flag} '${text}' must be longer than zero`);
  return seconds;
}

/** A duration where none at all is a valid choice, in any spelling: 0, 0s, 0.0, 0ms. */
export function parseDurationOrZero(text: string, flag: string): number {
  return /^\s*0+(\.0*)?\s*(ms|s|m)?\s*$/i.test(text) ? 0 : parseDuration(text, flag);
}

export function parseCount(text: string, flag: string, min: number, max: number): number {
  if (!/^\d+$/.test(text.trim())) throw new UsageError(`${flag} '${text}' is not a whole number`);
  const n = Number(text);
  if (n < min || n > max) throw new UsageError(`${flag} '${text}' is out of range: use ${min} to ${max}`);
  return n;
}
