// `diskdelta encryption --target DIR`: what dm-crypt costs on this disk and CPU — measured on a
// throwaway mapping (or the existing one under DIR), explained (which ceiling holds) and
// forecast (node/crypto/encryption-run.ts, shared/analysis/encryption.ts).
import { DM_CRYPT_FLAGS, type DmCryptFlag, type Throwaway } from '../../node/crypto/throwaway.ts';
import { measureEncryptionCost, type EncryptionSpec } from '../../node/crypto/encryption-run.ts';
import { formatEncryptionReport } from '../encryption-text.ts';
import { EXIT_FAILURE, UsageError, parseCount, parseFlags, type CliCommand } from '../args.ts';
import { specFromFlags } from './run.ts';
import { stopOnSignals } from '../signals.ts';
import { writeErr, writeOut } from '../terminal.ts';
import { terminalField } from '../../shared/model/display.ts';
import { sayFailure } from '../failure-out.ts';
import { notSavedLine, openLibraryToSave, saveMeasured } from '../save-runs.ts';
import { exitCodeOf } from '../../shared/model/failures.ts';

const HELP = `Usage: diskdelta encryption --target DIR [options]

What full-disk encryption (dm-crypt) costs on the disk under DIR with this CPU: the cipher's
ceiling, the same tests without and with dm-crypt, which ceiling holds (disk, cipher, bus),
and the forecast of the unencrypted figures under dm-crypt (labelled estimated).

  --target DIR         a folder on the disk to assess (required)
  --mode MODE          throwaway: a test file → loop device → plain dm-crypt mapping with a random
                       key from /dev/urandom, never stored; reads and writes; removed at the end,
                       on error and on Ctrl-C/SIGTERM, and by the next run after a SIGKILL
                       existing: DIR is already on dm-crypt; reads on the mapping and on the
                       device beneath, both opened read-only; writes only through a test file
                       in DIR (the device beneath is never written: its read stands in)
                       auto (default): existing where DIR is on dm-crypt, else throwaway
  --cipher SPEC        throwaway cipher (default aes-xts-plain64)
  --key-size BITS      throwaway key size (default 512)
  --sector-size BYTES  throwaway dm-crypt sector size, 512 or 4096 (default 512)
  --perf FLAG,…        throwaway dm-crypt flags: ${DM_CRYPT_FLAGS.join(', ')}
  --tests ID,…         (default seq1m-q8t1-read,seq1m-q8t1-write,rnd4k-q1t1-read)
  --size SIZE          test file / span (default 256MiB)
  --duration S, --warmup S, --runs N   as for diskdelta run (default: the quick preset's)
  --elevate            not root: ask once through polkit (pkexec and DiskDelta's helper) to open
                       the devices read-only; a throwaway mapping is then read-only too, so
                       only the read tests run on it
  --label TEXT         names the runs kept in the library
  --json               one JSON document on stdout
  --no-save            do not keep the runs in the library
  --db PATH            results library file

Needs root (loop device and device-mapper; reading a raw device), or --elevate with DiskDelta's
helper installed (sudo npx diskdelta helper install). Without either, cryptsetup (as root) or a
kernel with device-mapper it says what is missing; \`diskdelta ciphers\` works everywhere.
Exit codes: 0 ok; 2 bad usage; 3 cannot run here (root, cryptsetup, device-mapper); 7 interrupted;
9 polkit did not authorise it (dismissed, denied, no agent); 10 measured and printed but
not saved (each run written to a file that diskdelta import takes back); 1 other.
`;

export const encryptionCommand: CliCommand = {
  help: HELP,
  async run(argv) {
    const { values } = parseFlags(argv, {
      target: { type: 'string' },
      mode: { type: 'string' },
      cipher: { type: 'string' },
      'key-size': { type: 'string' },
      'sector-size': { type: 'string' },
      perf: { type: 'string' },
      tests: { type: 'string' },
      size: { type: 'string' },
      duration: { type: 'string' },
      warmup: { type: 'string' },
      runs: { type: 'string' },
      label: { type: 'string' },
      elevate: { type: 'boolean' },
      json: { type: 'boolean' },
      'no-save': { type: 'boolean' },
      db: { type: 'string' },
    });
    const bench = specFromFlags({ ...values, target: values.target });
    const mode = values.mode ?? 'auto';
    if (mode !== 'auto' && mode !== 'throwaway' && mode !== 'existing')
      throw new UsageError(`--mode '${mode}' is unknown: use auto, throwaway or existing`);
    const flags = (values.perf ?? '')
      .split(',')
      .map((f) => f.trim())
      .filter(Boolean);
    const badFlag = flags.find((f) => !(DM_CRYPT_FLAGS as readonly string[]).includes(f));
    if (badFlag) throw new UsageError(`--perf '${badFlag}' is not a dm-crypt flag: use ${DM_CRYPT_FLAGS.join(', ')}`);
    const sector = values['sector-size'] === undefined ? 512 : parseCount(values['sector-size'], '--sector-size', 512, 4096);
    if (sector !== 512 && sector !== 4096) throw new UsageError(`--sector-size '${sector}' must be 512 or 4096`);
    const spec: EncryptionSpec = {
      target: bench.target,
      mode,
      ...(bench.tests ? { tests: bench.tests } : {}),
      ...(bench.sizeBytes ? { sizeBytes: bench.sizeBytes } : {}),
      ...(bench.durationSec ? { durationSec: bench.durationSec } : {}),
      ...(bench.warmupSec !== undefined ? { warmupSec: bench.warmupSec } : {}),
      ...(bench.runs ? { runs: bench.runs } : {}),
      ...(bench.label ? { label: bench.label } : {}),
      ...(values.cipher ? { cipher: values.cipher } : {}),
      ...(values['key-size'] ? { keyBits: parseCount(values['key-size'], '--key-size', 128, 1024) } : {}),
      sectorBytes: sector,
      flags: flags as DmCryptFlag[],
      ...(values.elevate ? { elevate: true } : {}),
    };
    // Checked before the mapping is made and minutes are measured, as `run` does.
    const { library, failure } = openLibraryToSave('encryption', values.db, values['no-save'] === true);
    if (failure !== null) return sayFailure('encryption', failure, EXIT_FAILURE);

    let throwaway: Throwaway | null = null;
    // Ctrl-C/SIGTERM: stop the worker (the run then unwinds and tears the mapping down); a
    // second signal tears down at once and exits.
    const stop = stopOnSignals(() => void throwaway?.teardown().finally(() => process.exit(7)));
    try {
      const report = await measureEncryptionCost(spec, {
        signal: stop.signal,
        onThrowaway: (t) => (throwaway = t),
        onEvent: (e) => {
          if (e.type === 'warning' && !values.json) writeErr(`warning: ${terminalField(e.message)}\n`);
        },
      });
      // Saved (each run gets its id) before printing; a run the library refuses goes to a file.
      const outcome = await saveMeasured(library, [
        report.raw,
        report.encrypted,
        ...(report.encryptedWrites ? [report.encryptedWrites] : []),
      ]);
      writeOut(values.json ? `${JSON.stringify(report, null, 2)}\n` : formatEncryptionReport(report));
      if (outcome && !outcome.saved) {
        // The measured document is already on stdout (--json too): exit 10 and this line say the rest.
        writeErr(notSavedLine('encryption', outcome));
        return exitCodeOf('not-saved');
      }
      return 0;
    } finally {
      library?.close();
      stop.release();
    }
  },
};
