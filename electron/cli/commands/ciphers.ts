// `diskdelta ciphers [--json]`: the cipher ceilings of this CPU (node/crypto/cipher-ceilings.ts).
import { parseCount, parseDuration, parseFlags, UsageError, type CliCommand } from '../args.ts';
import { DEFAULT_ROUNDS, measureCipherCeilings } from '../../node/crypto/cipher-ceilings.ts';
import { formatCipherCeilings } from '../cipher-text.ts';
import { exitCodeOf } from '../../shared/model/failures.ts';
import { cipherChoiceProblem, type CipherCeilings } from '../../shared/model/cipher-types.ts';
import { LibraryError, openLibrary, resolveDbPath } from '../../node/store/library.ts';
import { writeErr, writeOut } from '../terminal.ts';

const HELP = `Usage: diskdelta ciphers [--json] [--cipher NAME:BITS]... [--sector 512|4096]... [--threads N]... [--window S] [--rounds N] [--no-save] [--db FILE]

How fast this CPU encrypts and decrypts disk sectors with dm-crypt's ciphers: the ceiling an
encrypted disk cannot exceed, whatever the drive. Measured through the kernel crypto API
(AF_ALG, the code dm-crypt runs), one request and one IV per sector, with one thread and with
every CPU. Where the kernel has no AF_ALG, OpenSSL measures instead and every figure is
labelled "user-space estimate".

  --cipher NAME:BITS  e.g. aes-xts-plain64:512 (repeatable; default: all the worker knows —
                      aes-xts-plain64 256/512, aes-cbc-essiv:sha256, serpent-xts, twofish-xts, adiantum)
  --sector BYTES      512 or 4096 … (repeatable; default 512 and 4096)
  --threads N         (repeatable; default 1 and every CPU)
  --window S          seconds per window (default 0.2)
  --rounds N          rounds of windows (default 5): each figure is the median of its N windows,
                      with its 95 % interval; flagged noisy when the windows disagree by more than
                      10 %, and flagged when more threads come out slower than one
  --user-space        measure with OpenSSL even where AF_ALG exists (labelled as an estimate)
  --json              machine-readable (bytes/s)
  --no-save           do not keep the measurement in the library
  --db PATH           results library file (default: $DISKDELTA_DB or ~/.local/share/diskdelta/library.sqlite)

The measurement is kept in the results library as one of this machine (date, CPU, kernel,
backend): compare's and the reports' encryption forecasts use the newest one of this CPU.
`;

export const ciphersCommand: CliCommand = {
  help: HELP,
  async run(argv) {
    const { values } = parseFlags(argv, {
      json: { type: 'boolean' },
      cipher: { type: 'string', multiple: true },
      sector: { type: 'string', multiple: true },
      threads: { type: 'string', multiple: true },
      window: { type: 'string' },
      rounds: { type: 'string' },
      'user-space': { type: 'boolean' },
      'no-save': { type: 'boolean' },
      db: { type: 'string' },
    });
    for (const c of values.cipher ?? []) {
      if (!/^[\w:,.-]+:\d+$/.test(c)) throw new UsageError(`--cipher '${c}' must be NAME:BITS, e.g. aes-xts-plain64:512`);
      const problem = cipherChoiceProblem(c.slice(0, c.lastIndexOf(':')), Number(c.slice(c.lastIndexOf(':') + 1)));
      if (problem) throw new UsageError(`--cipher '${c}': ${problem}`);
    }
    const sectors = (values.sector ?? []).map((s) => {
      const n = parseCount(s, '--sector', 512, 65536);
      if ((n & (n - 1)) !== 0) throw new UsageError(`--sector '${s}' must be a power of two (512, 4096 …)`);
      return n;
    });
    const threads = (values.threads ?? []).map((t) => parseCount(t, '--threads', 1, 64));
    const windowSeconds = values.window ? parseDuration(values.window, '--window') : 0.2;
    const rounds = values.rounds ? parseCount(values.rounds, '--rounds', 1, 50) : DEFAULT_ROUNDS;
    if (windowSeconds < 0.05 || windowSeconds > 60) throw new UsageError('--window must be 0.05 to 60 seconds');
    // A failure (no backend, a cipher the kernel lacks) reaches the CLI's one failure path
    // (failure-out.ts): its own exit code, and a JSON error under --json.
    const ceilings = await measureCipherCeilings({
      ciphers: values.cipher ?? [],
      sectors,
      threads,
      windowSeconds,
      rounds,
      backend: values['user-space'] ? 'openssl' : 'auto',
    });
    writeOut(values.json ? `${JSON.stringify(ceilings, null, 2)}\n` : formatCipherCeilings(ceilings));
    if (values['no-save']) return 0;
    return keep(ceilings, values.db, values.json === true);
  },
};

/** Printed first, kept second: a library that cannot take it loses nothing the user saw. */
function keep(ceilings: CipherCeilings, db: string | undefined, json: boolean): number {
  try {
    const library = openLibrary({ dbPath: resolveDbPath(db) });
    try {
      library.saveCipherCeilings(ceilings);
      if (!json) writeOut(`Kept in ${library.path}: compare and report forecast dm-crypt with it.\n`);
    } finally {
      library.close();
    }
  } catch (error) {
    if (!(error instanceof LibraryError)) throw error;
    writeErr(`diskdelta ciphers: the measurement above was not kept: ${error.message}. Choose another library with --db.\n`);
    return exitCodeOf('not-saved');
  }
  return 0;
}
