// Flag parsing shared by every subcommand. Errors are UsageError so that main() maps them
// to exit code 2 with a message that names the bad flag or value.
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { exitCodeOf } from '../core/model/failures.ts';

// From the one list of exit codes (core/model/failures.ts), which --help prints.
export const EXIT_OK = 0;
export const EXIT_FAILURE = exitCodeOf('internal');
export const EXIT_USAGE = exitCodeOf('usage');

export class UsageError extends Error {
  override name = 'UsageError';
}

export interface CliCommand {
  name: string;
  synopsis: string;
  summary: string;
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
  '': 1, b: 1,
  k: 1024, kb: 1000, kib: 1024,
  m: 1024 ** 2, mb: 1000 ** 2, mib: 1024 ** 2,
  g: 1024 ** 3, gb: 1000 ** 3, gib: 1024 ** 3,
  t: 1024 ** 4, tb: 1000 ** 4, tib: 1024 ** 4,
};

/**
 * "256MiB", "1GiB", "1G", "512M", "1.5GB", "4096". A bare letter (K, M, G, T) is binary, as in
 * fio and dd; "MB"/"GB" are decimal, "MiB"/"GiB" binary.
 */
export function parseSize(text: string, flag: string): number {
  const match = /^\s*(\d+(?:\.\d+)?)\s*([a-z]*)\s*$/i.exec(text);
  const unit = match ? SIZE_UNITS[match[2]!.toLowerCase()] : undefined;
  if (!match || unit === undefined) {
    throw new UsageError(`${flag} '${text}' is not a size: write a number with an optional unit, e.g. 256MiB, 1GiB, 1G, 500MB`);
  }
  const bytes = Math.round(Number(match[1]) * unit);
  if (!Number.isFinite(bytes) || bytes <= 0) throw new UsageError(`${flag} '${text}' must be larger than zero`);
  return bytes;
}

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

export function parseCount(text: string, flag: string, min: number, max: number): number {
  if (!/^\d+$/.test(text.trim())) throw new UsageError(`${flag} '${text}' is not a whole number`);
  const n = Number(text);
  if (n < min || n > max) throw new UsageError(`${flag} '${text}' is out of range: use ${min} to ${max}`);
  return n;
}
