// `diskdelta ciphers [--json]`: the cipher ceilings of this CPU (core/crypto/cipher-ceilings.ts).
import { parseCount, parseDuration, parseFlags, UsageError, type CliCommand } from '../args.ts';
import { measureCipherCeilings } from '../../core/crypto/cipher-ceilings.ts';
import { formatCipherCeilings } from '../../core/crypto/cipher-text.ts';
import { writeOut } from '../terminal.ts';
import { cipherChoiceProblem } from '../../core/model/cipher-types.ts';

const HELP = `Usage: diskdelta ciphers [--json] [--cipher NAME:BITS]... [--sector 512|4096]... [--threads N]... [--window S]

How fast this CPU encrypts and decrypts disk sectors with dm-crypt's ciphers: the ceiling an
encrypted disk cannot exceed, whatever the drive. Measured through the kernel crypto API
(AF_ALG, the code dm-crypt runs), one request and one IV per sector, with one thread and with
every CPU. Where the kernel has no AF_ALG, OpenSSL measures instead and every figure is
labelled "user-space estimate".

  --cipher NAME:BITS  e.g. aes-xts-plain64:512 (repeatable; default: all the worker knows —
                      aes-xts-plain64 256/512, aes-cbc-essiv:sha256, serpent-xts, twofish-xts, adiantum)
  --sector BYTES      512 or 4096 … (repeatable; default 512 and 4096)
  --threads N         (repeatable; default 1 and every CPU)
  --window S          seconds per figure (default 0.3)
  --user-space        measure with OpenSSL even where AF_ALG exists (labelled as an estimate)
  --json              machine-readable (bytes/s)
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
      'user-space': { type: 'boolean' },
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
    const windowSeconds = values.window ? parseDuration(values.window, '--window') : 0.3;
    if (windowSeconds < 0.05 || windowSeconds > 60) throw new UsageError('--window must be 0.05 to 60 seconds');
    const ceilings = await measureCipherCeilings({
      ciphers: values.cipher ?? [],
      sectors,
      threads,
      windowSeconds,
      backend: values['user-space'] ? 'openssl' : 'auto',
    });
    writeOut(values.json ? `${JSON.stringify(ceilings, null, 2)}\n` : formatCipherCeilings(ceilings));
    return 0;
  },
};
