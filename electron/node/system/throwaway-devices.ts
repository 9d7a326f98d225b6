// The names of DiskDelta's own throwaway devices (crypto/throwaway.ts makes them): mapping
// diskdelta-crypt-PID-RAND over a loop device of the file .diskdelta-crypt-PID-RAND.img. Here, in
// system/, because the orchestrator (bench/) must recognise them to allow write tests on them
// and only on them, and because recognising one is reading the machine (sysfs).
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { devNumberOf, readText } from './sysfs.ts';

export const DM_PREFIX = 'diskdelta-crypt-';
export const FILE_PREFIX = '.diskdelta-crypt-';

/**
 * Whether a block device is one of DiskDelta's own throwaway devices (the worker makes the same
 * check on the descriptor it opens): the only devices write tests may run on.
 */
export async function isOwnThrowawayDevice(path: string): Promise<boolean> {
  const st = await stat(path).catch(() => null);
  if (!st?.isBlockDevice()) return false;
  const majMin = devNumberOf(st.rdev);
  const dmName = (await readText('/', `/sys/dev/block/${majMin}/dm/name`)).value;
  if (dmName !== null) return dmName.startsWith(DM_PREFIX);
  const back = (await readText('/', `/sys/dev/block/${majMin}/loop/backing_file`)).value ?? '';
  return basename(back).startsWith(FILE_PREFIX);
}
