// How a run's engine and device read to a person, the same in the CLI, the library and the app.
import type { RunRecord, TargetInfo } from './results.ts';

/**
 * Importers store an unrecorded version as "unknown" (bonnie++ 1.0x CSV, KDiskMark 1.x,
 * reference data), and "bonnie++ unknown" read like an unknown device: the version is said
 * to be unknown instead.
 */
export function engineText(engine: Pick<RunRecord['engine'], 'name' | 'version'>): string {
  const version = engine.version.trim();
  const unknown = /^unknown\b\s*(?:\((.*)\))?\s*$/i.exec(version);
  if (version === '' || unknown) {
    const detail = unknown?.[1] ? `, ${unknown[1]}` : '';
    return `${engine.name} (version unknown${detail})`;
  }
  return `${engine.name} ${version}`;
}

/**
 * What a run measured: the disk ("Samsung SSD 870", or its kernel name "vda" when it has no
 * model), and any loop devices between the filesystem and that disk, since a run on a loop
 * device's filesystem measures the loop and its backing file as much as the disk under them
 * ("loop0 on vda"; with withFile, "loop0 (file /x/disk.img) on vda"). null: nothing known.
 */
export function measuredDeviceText(target: Pick<TargetInfo, 'device' | 'stack'>, options: { withFile?: boolean } = {}): string | null {
  const disk = target.device ? (target.device.model ?? target.device.name) : null;
  const loops = (target.stack ?? []).filter((layer) => layer.kind === 'loop');
  if (loops.length === 0) return disk;
  const via = loops
    .map((loop) =>
      options.withFile && typeof loop.details.backingFile === 'string' ? `${loop.name} (file ${loop.details.backingFile})` : loop.name,
    )
    .join(' on ');
  return disk ? `${via} on ${disk}` : via;
}
