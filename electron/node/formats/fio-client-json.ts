// fio client-mode JSON: `fio --client=HOSTS job.fio --output-format=json` writes
// "client_stats" instead of "jobs": one entry per job per host, each tagged with the "hostname"
// and "port" the client reached it at (client.c json_object_add_client_info). Each host becomes
// its own run(s), parsed by fio-json.ts from that host's entries only, so two hosts' jobs of the
// same name are never summed as clones of one job.
//
// What fio's client.c writes that must not be taken at face value:
//  - "All clients": the sum over every host and job (handle_ts, when more than one host
//    reported), tagged with the hostname of whichever host reported last. It is not a
//    measurement of any host, and it has been reported ~10× inflated (fio #752): left out.
//  - "global options": before fio 3.39 (commit 6f771553) one object holding every host's global
//    options as duplicate keys, so a value that differs between hosts cannot be given to either;
//    only values all hosts agree on are used. From 3.39 it is an array of one object per host,
//    tagged with hostname and port like the stats.
//  - "disk_util": per host, the devices fio saw busy: kept as the host's device ("fio.disk").
import type { RunRecord } from '../../shared/model/results.ts';
import { failAt, obj, parseFioJobsDocument, readFioDocument, runsOfJobs, type Doc, type JobEntry, type Obj } from './fio-json.ts';
import { ImportError, tooManyRuns, MAX_RUNS_PER_IMPORT } from './import-error.ts';
import { lineAt } from './json-scan.ts';
import { appendAll } from '../../shared/model/extremes.ts';

/** The name client.c gives the sum over hosts; with no "job options" of its own. */
export const ALL_CLIENTS = 'All clients';

/** Every fio JSON file: a single fio's "jobs", or client mode's "client_stats" per host. */
export function parseFioFile(text: string, fileName: string, now: Date): RunRecord[] {
  const doc = readFioDocument(text, fileName, now);
  return doc.root.client_stats === undefined ? parseFioJobsDocument(doc) : parseClientStats(doc);
}

function hostOf(doc: Doc, entry: Obj, path: Array<string | number>): string {
  if (typeof entry.hostname !== 'string') {
    failAt(
      doc.ctx,
      [...path, 'hostname'],
      'a client_stats entry has no "hostname": which host ran which job is not in the file, and summing them would mix ' +
        'hosts. Re-run with a fio that tags each entry (fio 2.1.4 or later), or import one host’s own fio JSON at a time',
    );
  }
  const port = typeof entry.port === 'number' ? entry.port : null;
  return port === null ? entry.hostname : `${entry.hostname}:${port}`;
}

function isAggregate(entry: Obj): boolean {
  return entry.jobname === ALL_CLIENTS && entry['job options'] === undefined;
}

/** Per-host global options: fio 3.39+ writes an array tagged by host; older fio, one mixed object. */
function globalOptions(doc: Doc, hosts: string[]): { perHost: Map<string, Record<string, string>>; note: string | null } {
  const perHost = new Map<string, Record<string, string>>();
  const value = doc.root['global options'];
  if (value === undefined) return { perHost, note: null };
  if (Array.isArray(value)) {
    value.forEach((item, i) => {
      const o = obj(doc.ctx, item, ['global options', i]);
      const host = hostOf(doc, o, ['global options', i]);
      const opts: Record<string, string> = {};
      for (const [k, v] of Object.entries(o)) if (k !== 'hostname' && k !== 'port' && typeof v === 'string') opts[k] = v;
      perHost.set(host, opts);
    });
    return { perHost, note: null };
  }
  // One object with every host's options as repeated keys: JSON.parse keeps only the last, so
  // the pairs are read from the text. A key whose values differ is kept as text, used by nobody.
  const values = repeatedKeyValues(doc, obj(doc.ctx, value, ['global options']));
  const agreed: Record<string, string> = {};
  const differing: string[] = [];
  for (const [k, vs] of values) {
    const distinct = [...new Set(vs)];
    if (distinct.length === 1) agreed[k] = distinct[0] as string;
    else {
      agreed[k] = `differs between hosts (${distinct.join(' | ')}): this fio writes all hosts' global options into one object`;
      differing.push(k);
    }
  }
  for (const host of hosts) perHost.set(host, agreed);
  const note =
    differing.length === 0
      ? null
      : `global options ${differing.join(', ')} differ between hosts; fio before 3.39 does not say whose is whose, so they are not used`;
  return { perHost, note };
}

/** The "key" : "value" pairs of a flat object of strings in the text, repeats kept in order. */
function repeatedKeyValues(doc: Doc, parsed: Obj): Map<string, string[]> {
  const { text, start } = doc.ctx;
  const at = text.indexOf('"global options"', start);
  const open = text.indexOf('{', at);
  const close = text.indexOf('}', open); // values are option strings: fio escapes no brace into a key
  const out = new Map<string, string[]>();
  for (const m of text.slice(open, close).matchAll(/"((?:[^"\\]|\\.)*)"\s*:\s*"((?:[^"\\]|\\.)*)"/g)) {
    const key = JSON.parse(`"${m[1] as string}"`) as string;
    const v = JSON.parse(`"${m[2] as string}"`) as string;
    const list = out.get(key);
    if (list) list.push(v);
    else out.set(key, [v]);
  }
  // What the text scan missed (a value that is not a string) still comes from the parse.
  for (const [k, v] of Object.entries(parsed)) if (!out.has(k) && typeof v === 'string') out.set(k, [v]);
  return out;
}

/** The devices fio reported busy on each host ("disk_util" entries tagged like the stats). */
function disksByHost(doc: Doc): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const value = doc.root.disk_util;
  if (!Array.isArray(value)) return out;
  value.forEach((item, i) => {
    const o = obj(doc.ctx, item, ['disk_util', i]);
    if (typeof o.name !== 'string' || typeof o.hostname !== 'string') return;
    const host = hostOf(doc, o, ['disk_util', i]);
    const list = out.get(host) ?? [];
    if (!list.includes(o.name)) list.push(o.name);
    out.set(host, list);
  });
  return out;
}

export function parseClientStats(doc: Doc): RunRecord[] {
  const { ctx } = doc;
  const stats = doc.root.client_stats;
  if (!Array.isArray(stats) || stats.length === 0) failAt(ctx, ['client_stats'], '"client_stats" must be a non-empty array');
  const byHost = new Map<string, JobEntry[]>();
  let aggregates = 0;
  (stats as unknown[]).forEach((value, i) => {
    const path = ['client_stats', i];
    const entry = obj(ctx, value, path);
    if (isAggregate(entry)) {
      aggregates++;
      return;
    }
    const host = hostOf(doc, entry, path);
    const list = byHost.get(host);
    if (list) list.push({ value, path });
    else byHost.set(host, [{ value, path }]);
  });
  if (byHost.size === 0) {
    throw new ImportError(
      ctx.fileName,
      lineAt(ctx.text, ctx.start),
      `"client_stats" holds only fio's "${ALL_CLIENTS}" sum, no host's own jobs`,
    );
  }
  if (byHost.size > MAX_RUNS_PER_IMPORT) throw tooManyRuns(ctx.fileName, `${byHost.size} hosts`);
  const { perHost, note } = globalOptions(doc, [...byHost.keys()]);
  const disks = disksByHost(doc);
  const runs: RunRecord[] = [];
  for (const [host, jobs] of byHost) {
    const meta: Record<string, string> = { 'fio.host': host, 'fio.hosts in file': String(byHost.size) };
    if (aggregates > 0) {
      meta['fio.aggregate'] =
        `fio's "${ALL_CLIENTS}" sum over ${byHost.size} hosts is left out: it is no host's measurement (and has been reported inflated, fio #752)`;
    }
    const hostDisks = disks.get(host);
    if (hostDisks) meta['fio.disk'] = hostDisks.join(', ');
    if (note) meta['fio.global options'] = note;
    const globals = perHost.get(host) ?? {};
    // Options whose value is "differs between hosts" are metadata only, never a job's setting.
    const usable = Object.fromEntries(Object.entries(globals).filter(([, v]) => !v.startsWith('differs between hosts')));
    const hostRuns = runsOfJobs(doc, usable, jobs, { host, meta });
    for (const run of hostRuns) for (const [k, v] of Object.entries(globals)) run.sourceMeta[`global.${k}`] = v;
    appendAll(runs, hostRuns);
  }
  if (runs.length > MAX_RUNS_PER_IMPORT) throw tooManyRuns(ctx.fileName, runs.length);
  return runs;
}
