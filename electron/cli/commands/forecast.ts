// `diskdelta forecast`: decide before you buy (issue #42). Candidates from spec sheets
// (model/candidate.ts) or runs in the library, capped by this machine's link and cipher, and
// forecast for the user's own workloads, write volume and working set
// (shared/analysis/candidate-forecast.ts), side by side with the disk in use today.
import { parseFlags, UsageError, type CliCommand } from '../args.ts';
import { CliFailure, DB_HELP, parseRunId, withLibrary } from '../library-cli.ts';
import {
  candidateProblems,
  EXAMPLE_CANDIDATE,
  MAX_CANDIDATES,
  MAX_SPEC_BYTES,
  parseSpecText,
  specTooLarge,
} from '../../shared/model/candidate.ts';
import { ForecastError, forecastFromLibrary, specCandidate, type CandidateInput } from '../../node/api/forecast-service.ts';
import { readRegularFile, UnreadableFileError } from '../../node/files/read-bounded.ts';
import { thisCpu } from '../../node/crypto/cipher-ceilings.ts';
import { formatForecastText } from '../forecast-text.ts';
import { writeErr, writeOut } from '../terminal.ts';

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

/**
 * Reads one spec sheet and checks it (the one validator, forecast-service.ts); a problem is a
 * UsageError naming the file and each field.
 */
export async function specInput(path: string): Promise<CandidateInput & { kind: 'spec' }> {
  let text: string;
  try {
    text = (await readRegularFile(path, { maxBytes: MAX_SPEC_BYTES })).toString('utf8');
  } catch (error) {
    if (error instanceof UnreadableFileError && error.code === 'EFBIG') throw new UsageError(specTooLarge(path));
    throw new UsageError(`cannot read the spec sheet ${path}: ${(error as Error).message}`);
  }
  const parsed = parseSpecText(text, path);
  if (!parsed.ok) throw new UsageError(parsed.problem);
  asCliError(() => specCandidate(parsed.json, path));
  return { kind: 'spec', spec: parsed.json, source: path };
}

/**
 * `--candidate` values, each a spec sheet (a path that exists: read and checked now, before the
 * library opens, so a refused one loses nothing) or a run id; anything else is said with what to
 * give. The one reading of `forecast --candidate` and `assess set --candidate`.
 */
export async function candidateArgs(given: readonly string[]): Promise<CandidateInput[]> {
  const candidates: CandidateInput[] = [];
  for (const arg of given) {
    if (await isFile(arg)) candidates.push(await specInput(arg));
    else if (/^#?\d+$/.test(arg)) candidates.push({ kind: 'run', id: parseRunId(arg) });
    else
      throw new UsageError(`--candidate '${arg}' is neither a file nor a run id: give a spec sheet's path or a run id from diskdelta list`);
  }
  return candidates;
}

/** How a command names the run a ForecastError is about: `forecast`'s flags by default. */
type RunNames = Record<NonNullable<ForecastError['about']>['as'], string>;
const FORECAST_FLAGS: RunNames = { candidate: '--candidate', current: '--current', workload: '--workload' };
/** In `assess show` and `assess report` the runs are the assessment's, given by no flag. */
export const ASSESSMENT_RUNS: RunNames = { candidate: 'candidate run', current: 'the before run', workload: 'workload run' };

/** A ForecastError as the CLI says it: the caller's mistake is bad usage (exit 2), the rest exit 1. */
export function asCliError<T>(call: () => T, names: RunNames = FORECAST_FLAGS): T {
  try {
    return call();
  } catch (error) {
    if (error instanceof ForecastError) {
      const message = error.about ? `${names[error.about.as]} ${error.about.id}: ${error.message}` : error.message;
      throw error.kind === 'input' ? new UsageError(message) : new CliFailure(message);
    }
    throw error;
  }
}

async function isFile(path: string): Promise<boolean> {
  const { stat } = await import('node:fs/promises');
  return stat(path).then(
    () => true,
    () => false,
  );
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
    if (values.encrypt && values.plain) throw new UsageError('--encrypt and --plain contradict each other: give one');
    // Spec sheets are checked before the library is opened: a refused sheet loses nothing.
    const candidates = await candidateArgs(given);
    const cpu = await thisCpu();
    return withLibrary(
      'forecast',
      values.db,
      (library) => {
        const { forecast, notes } = asCliError(() =>
          forecastFromLibrary(
            library,
            {
              candidates,
              current: values.current ? parseRunId(values.current) : undefined,
              workloads: values.workload?.map(parseRunId),
              encrypt: values.encrypt ? true : values.plain ? false : undefined,
            },
            cpu,
          ),
        );
        for (const note of notes) writeErr(`note: ${note}\n`);
        writeOut(values.json ? `${JSON.stringify(forecast, null, 2)}\n` : formatForecastText(forecast));
        return 0;
      },
      { readOnly: true },
    );
  },
};
