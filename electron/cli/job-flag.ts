// `diskdelta run --job bs=128k,qd=32,threads=1,pattern=seq,rw=read`: a rate test by its
// parameters, keys from the one key table (shared/model/test-params.ts). It becomes the test id of
// those parameters: the catalog's where it lists them (bs=4k,qd=1,rw=randread is rnd4k-q1t1-read),
// else one of the same scheme (seq128k-q32t1-read) that parses back to them.
import { testIdFor } from '../shared/model/catalog.ts';
import { ACCESS_PATTERN_NAMES, type AccessPattern } from '../shared/model/access-patterns.ts';
import { PARAM_KEYS, paramsProblem, type ParamKeyDef, type TestParams } from '../shared/model/test-params.ts';
import { parseSize, UsageError } from './args.ts';

/** pattern=seq|rand with rw=read|write|rw, as fio users write it, → the worker's rw. */
const COMBINED: Record<string, Record<string, AccessPattern | undefined>> = {
  seq: { read: 'read', write: 'write' },
  rand: { read: 'randread', write: 'randwrite', rw: 'randrw', randrw: 'randrw' },
};

export const JOB_HELP = `  --job SPEC           a test by its parameters, repeatable (with or instead of --tests):
                       rw=${ACCESS_PATTERN_NAMES.filter((p) => p !== 'seeks').join('|')} (or pattern=seq|rand with rw=read|write|rw),
${PARAM_KEYS.map((k) => `                       ${`${k.job}=${k.input === 'size' ? 'SIZE' : 'N'}`.padEnd(10)} ${k.help}, ${rangeText(k)}`).join('\n')}
                       e.g. --job bs=128k,qd=32,threads=1,pattern=seq,rw=read (its id: seq128k-q32t1-read);
                       bs defaults to 4k, qd and threads to 1, read to 70, span to the whole target
                       (span=256m,rw=randread: random reads over the first 256 MiB; its id ends -span256m)`;

/** A key's range as a user types it: "512 to 64m" for a size, "1 to 1024" for a number. */
function rangeText(k: ParamKeyDef): string {
  if (k.input === 'number') return `${k.min} to ${k.max}`;
  const unit = k.unitBytes ?? 1;
  return `${sizeText(k.min * unit)} to ${sizeText(k.max * unit)}, e.g. ${k.job === 'bs' ? '4k, 128k, 1m' : '256m, 4g'}`;
}

function sizeText(bytes: number): string {
  for (const [suffix, size] of [
    ['t', 2 ** 40],
    ['g', 2 ** 30],
    ['m', 2 ** 20],
    ['k', 1024],
  ] as const)
    if (bytes >= size && bytes % size === 0) return `${bytes / size}${suffix}`;
  return String(bytes);
}

/** One --job value → the test's parameters, or a UsageError naming the bad key. */
export function parseJob(text: string): TestParams {
  const say = (why: string) => new UsageError(`--job '${text}': ${why}`);
  const given = new Map<string, string>();
  for (const item of text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const eq = item.indexOf('=');
    if (eq <= 0) throw say(`'${item}' is not key=value`);
    const key = item.slice(0, eq).trim();
    if (given.has(key)) throw say(`${key}= is given twice`);
    given.set(key, item.slice(eq + 1).trim());
  }
  const known = ['rw', 'pattern', ...PARAM_KEYS.map((k) => k.job)];
  const unknown = [...given.keys()].find((k) => !known.includes(k));
  if (unknown) throw say(`unknown key '${unknown}': use ${known.join(', ')}`);
  const rwText = given.get('rw');
  if (!rwText) throw say('rw= is required, e.g. rw=read');
  const pattern = given.get('pattern');
  let rw: AccessPattern | undefined;
  if (pattern !== undefined) {
    const table = COMBINED[pattern];
    if (!table) throw say(`pattern '${pattern}' is unknown: use seq or rand`);
    rw = table[rwText];
    if (!rw) throw say(`pattern=${pattern} takes rw=${Object.keys(table).join('|')}, not '${rwText}'`);
  } else rw = (ACCESS_PATTERN_NAMES as readonly string[]).includes(rwText) ? (rwText as AccessPattern) : undefined;
  if (!rw) throw say(`rw '${rwText}' is unknown: use ${ACCESS_PATTERN_NAMES.join(', ')}`);
  // Seeks are bonnie++'s fixed shape (8 KiB, QD1): the catalog's one test, by name.
  if (rw === 'seeks') throw say("rw=seeks is bonnie++'s fixed test: use --tests seeks");
  const params: TestParams = { rw, blockSize: 4096, queueDepth: 1, threads: 1 };
  if (rw === 'randrw') params.readPercent = 70;
  for (const k of PARAM_KEYS) {
    const value = given.get(k.job);
    if (value === undefined) continue;
    if (k.key === 'readPercent' && rw !== 'randrw') throw say(`read= is for a mix (rw=randrw): '${rwText}' reads or writes only`);
    params[k.key] = k.input === 'size' ? sizeIn(value, k) : /^\d+$/.test(value) ? Number(value) : Number.NaN;
  }
  const problem = paramsProblem(params);
  if (problem) throw say(problem);
  return params;
}

/** A size key's value in the worker's unit: span=1g → 1024 (MiB); a size that is no whole unit is refused. */
function sizeIn(value: string, k: ParamKeyDef): number {
  const bytes = parseSize(value, k.job);
  const unit = k.unitBytes ?? 1;
  if (bytes % unit !== 0)
    throw new UsageError(`${k.job}=${value} is not a whole number of ${unit === 2 ** 20 ? 'MiB' : 'bytes'}: use e.g. ${k.job}=256m`);
  return bytes / unit;
}

/** The --job values → test ids, in order. */
export function jobTests(values: readonly string[]): string[] {
  return values.map((v) => testIdFor(parseJob(v)));
}
