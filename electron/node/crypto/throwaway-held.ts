// The throwaway dm-crypt mapping for a user who is not root. The privileged helper makes it
// (`pkexec diskdelta-helper crypt-setup`, native/src/helper.c) over DiskDelta's own test file
// and passes back the mapping and the loop beneath it, both read-only; a
// `diskdelta-worker crypt-hold`, the user's own process, keeps the two descriptors and serves
// them to the measuring runs (--fd-from). When the holder closes them, or dies, the kernel
// removes the mapping and then the loop: no second root step tears anything down, and a
// SIGKILL leaves only the test file, which the next run's `prepare` sweeps.
//
// Read-only by design: the helper opens nothing writable (issue #10), so without root the
// throwaway mode measures reads only; root's own throwaway (throwaway.ts) also writes.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { readRegularFile } from '../files/read-bounded.ts';
import { release as osRelease, tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { BenchError } from '../bench/errors.ts';
import { workerCommand } from '../bench/worker-argv.ts';
import { locateWorker } from '../bench/worker-client.ts';
import { holding } from '../bench/privilege/holder-lines.ts';
import { prepareTestFile, type Throwaway, type ThrowawayOptions } from './throwaway.ts';

export interface HeldThrowaway extends Throwaway {
  /** Serves the mapping's descriptor (runBenchmark's fdFrom). */
  socket: string;
  /** Serves the loop's: the raw side. */
  rawSocket: string;
}

/**
 * Why this kernel cannot make a dm-crypt mapping, judged without root (so that no one is asked
 * for a password for nothing), or null when it may: device-mapper is loaded, or is a module the
 * kernel loads on first use.
 */
export async function deviceMapperMissing(
  where = { misc: '/proc/misc', loaded: '/sys/module/dm_mod', modules: `/lib/modules/${osRelease()}/kernel/drivers/md` },
): Promise<string | null> {
  const misc = await readRegularFile(where.misc).then(String, () => '');
  if (/\bdevice-mapper\b/.test(misc) || existsSync(where.loaded)) return null;
  const modules = await readdir(where.modules).catch(() => [] as string[]);
  if (modules.some((m) => m.startsWith('dm-mod.ko'))) return null;
  return 'this kernel has no device-mapper (dm-mod), so dm-crypt cannot run here; the cipher ceilings and the forecast still work';
}

/** The helper's four crypt-setup operands after the file, as crypt-hold's --crypt. */
export function cryptOperands(o: Pick<ThrowawayOptions, 'cipher' | 'keyBits' | 'sectorBytes' | 'flags'>): string {
  return [o.cipher, String(o.keyBits), String(o.sectorBytes), o.flags.length ? o.flags.join(',') : 'none'].join(' ');
}

/** Make the mapping through the helper and hold it; on any failure nothing stays behind. */
export async function holdThrowaway(o: ThrowawayOptions & { helper: string }): Promise<HeldThrowaway> {
  const file = await prepareTestFile(o);
  const dir = await mkdtemp(join(process.env.XDG_RUNTIME_DIR || tmpdir(), 'diskdelta-crypt-'));
  const socketPath = join(dir, 'crypt.sock');
  const child = spawn(
    o.workerPath ?? locateWorker(),
    workerCommand('crypt-hold', { target: file, helper: o.helper, crypt: cryptOperands(o), socket: socketPath }),
    { stdio: ['pipe', 'pipe', 'pipe'] },
  );
  const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
  let torn = false;
  const teardown = async () => {
    if (torn) return;
    torn = true;
    // Closing stdin ends the holder; it closes both descriptors and the kernel removes the rest.
    child.stdin.end();
    const late = setTimeout(() => child.kill('SIGTERM'), 10_000);
    await closed;
    clearTimeout(late);
    await rm(dir, { recursive: true, force: true });
    await rm(file, { force: true });
  };
  try {
    const held = await holding(
      child,
      (code) => new BenchError('throwaway-failed', `the mapping's holder exited (code ${code}) before the mapping was made`),
    );
    if (!held.device || !held.raw_device || !held.raw_socket)
      throw new BenchError('internal', `the mapping's holder did not name both devices: ${JSON.stringify(held)}`);
    return {
      file,
      loop: held.raw_device,
      name: basename(held.device),
      mapping: held.device,
      socket: socketPath,
      rawSocket: held.raw_socket,
      teardown,
    };
  } catch (error) {
    await teardown();
    throw error;
  }
}
