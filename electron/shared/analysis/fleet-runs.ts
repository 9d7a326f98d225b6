// Which library runs make a fleet, and how they came in: `fleet compare`, the app's Fleet page
// and the fleet report all read them here. A fleet run is a fio run tagged with the host fio's
// client reached it at ("fio.host", formats/fio-client-json.ts). Each `fleet run` or import of
// one client-mode JSON saves its hosts' runs with one createdAt (one `now`, or the file's own
// time), so that date is what tells one fleet measurement from another.
import type { RunRecord } from '../model/results.ts';
import type { RunFilter, RunSummary } from '../model/run-summary.ts';

export interface FleetLibrary {
  listRuns(filter?: RunFilter): RunSummary[];
  /** A run the library can no longer read is null here (store/stored-row.ts): it never breaks the fleet of the others. */
  readRuns(ids: readonly number[]): { runs: Array<RunRecord | null> };
}

/** One fleet measurement: the hosts' runs saved together. */
export interface FleetGroup {
  /** Its createdAt: the key the app ticks. */
  key: string;
  createdAt: string;
  hosts: number;
  runIds: number[];
}

/** Every fleet run of the library, oldest first; or those of `ids` that are fleet runs. */
export function fleetRunsOf(library: FleetLibrary, ids?: readonly number[]): RunRecord[] {
  const wanted = ids ? new Set(ids) : null;
  const fio = library
    .listRuns({})
    .filter((s) => s.sourceFormat === 'fio' && (wanted === null || wanted.has(s.id)))
    .map((s) => s.id);
  return library
    .readRuns(fio)
    .runs.filter((run): run is RunRecord => run !== null && Boolean(run.sourceMeta['fio.host']))
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt));
}

/** The fleet measurements among `runs`, newest first. */
export function fleetGroups(runs: readonly RunRecord[]): FleetGroup[] {
  const groups = new Map<string, { group: FleetGroup; hosts: Set<string> }>();
  for (const run of runs) {
    if (run.id === undefined) continue;
    let entry = groups.get(run.createdAt);
    if (!entry) {
      entry = { group: { key: run.createdAt, createdAt: run.createdAt, hosts: 0, runIds: [] }, hosts: new Set() };
      groups.set(run.createdAt, entry);
    }
    entry.group.runIds.push(run.id);
    entry.hosts.add(run.sourceMeta['fio.host'] ?? run.label);
    entry.group.hosts = entry.hosts.size;
  }
  return [...groups.values()].map((e) => e.group).sort((a, b) => b.createdAt.localeCompare(a.createdAt));
}
