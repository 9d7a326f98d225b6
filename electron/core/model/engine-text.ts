// How a run's engine reads to a person. Importers store an unrecorded version as "unknown"
// (bonnie++ 1.0x CSV, KDiskMark 1.x, reference data), and "bonnie++ unknown" read like an
// unknown device: the version is said to be unknown instead.
import type { RunRecord } from './results.ts';

export function engineText(engine: Pick<RunRecord['engine'], 'name' | 'version'>): string {
  const version = engine.version.trim();
  const unknown = /^unknown\b\s*(?:\((.*)\))?\s*$/i.exec(version);
  if (version === '' || unknown) {
    const detail = unknown?.[1] ? `, ${unknown[1]}` : '';
    return `${engine.name} (version unknown${detail})`;
  }
  return `${engine.name} ${version}`;
}
