// `diskdelta forecast`: decide before you buy (issue #42). Candidates from spec sheets
// (model/candidate.ts) or runs in the library, capped by this machine's link and cipher, and
// forecast for the user's own workloads, write volume and working set
// (shared/analysis/candidate-forecast.ts), side by side with the disk in use today.
import { parseFlags, UsageError, type CliCommand } from '../args.ts';
import { CliFailure, DB_HELP, parseRunId, requireRuns, withLibrary } from '../library-cli.ts';
import { candidateProblems, EXAMPLE_CANDIDATE, parseCandidateSpec } from '../../shared/model/candidate.ts';
import { candidateFromRun, candidateFromSpec, type Candidate, type MachineLimits } from '../../shared/analysis/candidate.ts';
import { forecastCandidates } from '../../shared/analysis/candidate-forecast.ts';
import { cipherRates } from '../../shared/analysis/encryption.ts';
import { runEncrypted, runKind } from '../../shared/model/run-kind.ts';
import { testsOfKind } from '../../shared/model/catalog.ts';
import { WORKING_SET_TEST } from '../../shared/analysis/working-set.ts';
import type { RunRecord } from '../../shared/model/results.ts';
import type { Library } from '../../node/store/library.ts';
import { lowestCeiling } from '../../node/system/ceiling.ts';
import { readRegularFile } from '../../node/files/read-bounded.ts';
import { thisCpu } from '../../node/crypto/cipher-ceilings.ts';
import { formatForecastText } from '../forecast-text.ts';
import { writeErr, writeOut } from '../terminal.ts';

export const MAX_CANDIDATES = 4;
/** A spec sheet is a few hundred bytes: anything past this is not one. */
const MAX_SPEC_BYTES = 64 * 1024;

const HELP = `Usage: diskdelta forecast --candidate FILE|RUN [--candidate …] [options]
       diskdelta forecast --example

Decide before you buy: up to ${MAX_CANDIDATES} candidate drives, each forecast on this machine (the link the
new disk would sit on, dm-crypt's ceiling on this CPU when you encrypt) for your own work (the
workloads measured on your disk, your write volume, your working set), side by side with the disk
in use today. Every figure is estimated, with its range; the model is in docs/forecast.md.

  --candidate FILE|RUN  a spec sheet (JSON; --example prints one to fill in) or the id of a disk
                        run in the library (measured here, imported or reference: said beside it).
                        A path that exists is a file, else digits are a run id. 1 to ${MAX_CANDIDATES}.
  --example             print a filled-in spec sheet and exit
  --current RUN         the run measuring the disk in use today (default: the newest measured disk run)
  --workload RUN        a workload run to forecast (repeatable; default: the newest measured run of
                        each workload on the current disk)
  --encrypt, --plain    forecast under dm-crypt on this CPU (needs \`diskdelta ciphers\` kept), or
                        without it (default: as the current disk is)
  --json                the forecast as JSON
${DB_HELP}
Exit codes: 0 ok; 2 bad usage or a spec sheet refused (each problem names its field); 1 other.
`;

/** Reads and checks one spec sheet; a problem is a UsageError naming the file and each field. */
async function specCandidate(path: string): Promise<Candidate> {
  let text: string;
  try {
    text = (await readRegularFile(path, { maxBytes: MAX_SPEC_BYTES })).toString('utf8');
  } catch (error) {
    throw new UsageError(`cannot read the spec sheet ${path}: ${(error as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${path} is not JSON (${(error as Error).message}): diskdelta forecast --example prints a spec sheet to fill in`);
  }
  const parsed = parseCandidateSpec(json);
  if (!parsed.ok)
    throw new UsageError(`the spec sheet ${path} is refused; fix each field and try again:\n  ${parsed.problems.join('\n  ')}`);
  return candidateFromSpec(parsed.spec, path);
}

async function isFile(path: string): Promise<boolean> {
  const { stat } = await import('node:fs/promises');
  return stat(path).then(
    () => true,
    () => false,
  );
}

/**
 * The newest `limit` runs the filter selects, newest first: the library answers the filter (its
 * kind column says what each run is) and only those runs are read.
 */
function newestRuns(library: Library, filter: Parameters<Library['listRuns']>[0], limit: number): RunRecord[] {
  const ids = library
    .listRuns({ ...filter, limit })
    .map((s) => s.id)
    .reverse();
  return library.getRuns(ids).filter((r): r is RunRecord => r !== null);
}

/** Two runs on the same disk: the same kernel name and model, and serial where both know one. */
function sameDisk(a: RunRecord, b: RunRecord): boolean {
  const x = a.target.device;
  const y = b.target.device;
  if (!x || !y) return false;
  if (x.serial && y.serial) return x.serial === y.serial;
  return x.name === y.name && x.model === y.model;
}

/** The newest measured run of each workload on the current disk, each run once (one run may hold several workloads). */
function newestWorkloads(library: Library, current: RunRecord): RunRecord[] {
  const found = new Map<number, RunRecord>();
  for (const t of testsOfKind('workload')) {
    const run = newestRuns(library, { source: 'measured', test: t.id, kind: 'workload' }, 50).find((r) => sameDisk(r, current));
    if (run?.id !== undefined) found.set(run.id, run);
  }
  return [...found.values()];
}

export const forecastCommand: CliCommand = {
  help: HELP,
  async run(argv) {
    const { values } = parseFlags(argv, {
      candidate: { type: 'string', multiple: true },
      example: { type: 'boolean' },
      current: { type: 'string' },
      workload: { type: 'string', multiple: true },
      encrypt: { type: 'boolean' },
      plain: { type: 'boolean' },
      json: { type: 'boolean' },
      db: { type: 'string' },
    });
    if (values.example) {
      // Printed checked: the example must always pass the schema it teaches.
      if (candidateProblems(EXAMPLE_CANDIDATE).length) throw new Error('the example spec sheet fails its own schema');
      writeOut(`${JSON.stringify(EXAMPLE_CANDIDATE, null, 2)}\n`);
      return 0;
    }
    const given = values.candidate ?? [];
    if (given.length === 0)
      throw new UsageError(
        'give a candidate: --candidate ssd.json (diskdelta forecast --example prints one to fill in) or --candidate RUN',
      );
    if (given.length > MAX_CANDIDATES) throw new UsageError(`at most ${MAX_CANDIDATES} candidates side by side (${given.length} given)`);
    if (values.encrypt && values.plain) throw new UsageError('--encrypt and --plain contradict each other: give one');
    // Spec sheets are checked before the library is opened: a refused sheet loses nothing.
    const slots: Array<Candidate | number> = [];
    for (const arg of given) {
      if (await isFile(arg)) slots.push(await specCandidate(arg));
      else if (/^#?\d+$/.test(arg)) slots.push(parseRunId(arg));
      else
        throw new UsageError(
          `--candidate '${arg}' is neither a file nor a run id: give a spec sheet's path or a run id from diskdelta list`,
        );
    }
    const cpu = await thisCpu();
    return withLibrary(
      'forecast',
      values.db,
      (library) => {
        const candidates = slots.map((slot) => {
          if (typeof slot !== 'number') return slot;
          const c = candidateFromRun(requireRuns(library, [slot])[0]!);
          if ('refused' in c) throw new UsageError(`--candidate ${slot}: ${c.refused}`);
          return c;
        });
        const current = values.current
          ? requireRuns(library, [parseRunId(values.current)])[0]!
          : newestRuns(library, { source: 'measured', kind: 'disk' }, 1)[0];
        if (!current)
          throw new CliFailure(
            'no measured disk run in the library to forecast from: measure the disk in use today first (diskdelta run --target ~/)',
          );
        if (runKind(current) !== 'disk')
          throw new UsageError(`--current ${current.id}: "${current.label}" is not a disk measured by the rate tests`);
        const workloads = values.workload
          ? requireRuns(library, values.workload.map(parseRunId)).map((r) => {
              if (runKind(r) !== 'workload') throw new UsageError(`--workload ${r.id}: "${r.label}" is not a workload run`);
              return r;
            })
          : newestWorkloads(library, current);
        const encrypt = values.encrypt === true || (values.plain !== true && runEncrypted(current) === true);
        const ceilings = encrypt ? library.latestCipherCeilings(cpu) : null;
        const rates = ceilings ? cipherRates(ceilings) : null;
        if (encrypt && !rates) {
          const why = 'no cipher ceilings of this CPU in the library (aes-xts-plain64, 512-bit): run diskdelta ciphers first';
          if (values.encrypt) throw new CliFailure(`cannot forecast encrypted: ${why}`);
          writeErr(`note: the current disk is encrypted, but ${why}; forecasting without dm-crypt's ceiling\n`);
        }
        const ceiling = lowestCeiling(current.target.device, current.target.stack);
        const limits: MachineLimits = {
          link: ceiling
            ? {
                ceilingBytesPerSec: ceiling.bytesPerSec,
                description: `${current.target.device?.linkDescription ?? ceiling.where}, ${Math.round(ceiling.bytesPerSec / 1e6)} MB/s`,
                transport: current.target.device?.transport ?? null,
              }
            : null,
          cipher: rates,
        };
        const workingSet = newestRuns(library, { test: WORKING_SET_TEST }, 1)[0] ?? null;
        const forecast = forecastCandidates({ current, candidates, limits, workloads, writeSamples: library.writeSamples(), workingSet });
        writeOut(values.json ? `${JSON.stringify(forecast, null, 2)}\n` : formatForecastText(forecast));
        return 0;
      },
      { readOnly: true },
    );
  },
};
