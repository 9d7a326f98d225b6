// A SYNTHETIC fio --client JSON file of many hosts (issue #26's 1,000 × 10), for
// scripts/bench-fleet-page.ts: each entry is a real fio 3.33 client_stats entry (the five-host
// fleet lab's fixture) with the host, the job's options and its figures changed, so the import
// reads every field fio writes. Written without fio's indentation: fio's own layout of 10,000
// entries is ~63 MB, past the 50 MiB import limit (shared/model/import-limits.ts); the parser does
// not care about whitespace.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const FIXTURE = join(import.meta.dirname, '..', 'electron', 'node', 'formats', 'fixtures', 'fio-3.33-client-5-throttled-hosts.json');

/** The ten jobs every host runs: the CrystalDiskMark grid, the 70/30 mix and a four-thread random read. */
const JOBS: Array<{ name: string; rw: string; bs: number; iodepth: number; numjobs: number; sequential: boolean }> = [
  { name: 'seq1m-q8t1-read', rw: 'read', bs: 1048576, iodepth: 8, numjobs: 1, sequential: true },
  { name: 'seq1m-q8t1-write', rw: 'write', bs: 1048576, iodepth: 8, numjobs: 1, sequential: true },
  { name: 'seq1m-q1t1-read', rw: 'read', bs: 1048576, iodepth: 1, numjobs: 1, sequential: true },
  { name: 'seq1m-q1t1-write', rw: 'write', bs: 1048576, iodepth: 1, numjobs: 1, sequential: true },
  { name: 'rnd4k-q32t1-read', rw: 'randread', bs: 4096, iodepth: 32, numjobs: 1, sequential: false },
  { name: 'rnd4k-q32t1-write', rw: 'randwrite', bs: 4096, iodepth: 32, numjobs: 1, sequential: false },
  { name: 'rnd4k-q1t1-read', rw: 'randread', bs: 4096, iodepth: 1, numjobs: 1, sequential: false },
  { name: 'rnd4k-q1t1-write', rw: 'randwrite', bs: 4096, iodepth: 1, numjobs: 1, sequential: false },
  { name: 'mix70-rnd4k-q8t1', rw: 'randrw', bs: 4096, iodepth: 8, numjobs: 1, sequential: false },
  { name: 'rnd4k-q32t4-read', rw: 'randread', bs: 4096, iodepth: 32, numjobs: 4, sequential: false },
];
export const FLEET_JOBS = JOBS.length;

type Entry = Record<string, unknown> & { read: Record<string, unknown>; write: Record<string, unknown> };

/** The host name fio's client reached host i at. */
export const fleetHostName = (i: number): string => `10.${Math.floor(i / 65536) % 256}.${Math.floor(i / 256) % 256}.${i % 256}`;

type Latency = { mean: number; min: number; max: number; percentile?: Record<string, number> } & Record<string, unknown>;

/** A latency object of the template's shape, every figure scaled to this mean. */
function latency(template: Latency, meanNs: number): Latency {
  const k = meanNs / template.mean;
  const scaled: Latency = { ...template, mean: meanNs, min: Math.round(template.min * k), max: Math.round(template.max * k) };
  if (template.percentile)
    scaled.percentile = Object.fromEntries(Object.entries(template.percentile).map(([p, v]) => [p, Math.round(v * k)]));
  return scaled;
}

/**
 * fio's figures of one direction at this rate, over 3 s. Each I/O's latency is what the queue
 * depth makes of the rate, plus the host's number in ns: no two hosts measure alike (the library
 * keeps two identical measurements as one, node/store/run-fingerprint.ts).
 */
function direction(template: Record<string, unknown>, bytesPerSec: number, bs: number, inFlight: number, host: number) {
  const runtime = 3000;
  const ios = Math.max(1, Math.round((bytesPerSec * (runtime / 1000)) / bs));
  const iops = ios / (runtime / 1000);
  const meanNs = (inFlight / iops) * 1e9 + host;
  return {
    ...template,
    io_bytes: ios * bs,
    io_kbytes: Math.round((ios * bs) / 1024),
    bw_bytes: Math.round((ios * bs) / (runtime / 1000)),
    bw: Math.round((ios * bs) / 1024 / (runtime / 1000)),
    iops,
    runtime,
    total_ios: ios,
    clat_ns: latency(template.clat_ns as Latency, meanNs * 0.98),
    lat_ns: latency(template.lat_ns as Latency, meanNs),
  };
}

/**
 * `hosts` hosts × 10 jobs: every tenth host a hard disk (~110 MB/s, ~120 IOPS), the rest SSDs
 * (~500 MB/s, ~20,000 IOPS unless `ssdIops` says otherwise: e2e/page-fit.spec.ts lays out the
 * six-digit figures of an NVMe drive or a RAM disk), spread deterministically as in
 * bench-fleet.ts. One "All clients" sum at the end, as fio writes it.
 */
export function fleetClientFio(hosts: number, ssdIops = 20_000): string {
  const text = readFileSync(FIXTURE, 'utf8');
  const doc = JSON.parse(text.slice(text.search(/^\{/m))) as { client_stats: Entry[]; 'global options': unknown; disk_util: unknown[] };
  const template = doc.client_stats[0]!;
  const idle = template.write;
  const readTemplate = template.read;
  const entries: string[] = [];
  const disks: string[] = [];
  for (let i = 0; i < hosts; i++) {
    const hdd = i % 10 === 0;
    const wobble = 1 + ((i * 7919) % 101) / 500;
    const host = fleetHostName(i);
    for (const job of JOBS) {
      const rate = job.sequential ? (hdd ? 110e6 : 500e6) * wobble : (hdd ? 120 : ssdIops) * wobble * job.bs;
      const inFlight = job.iodepth * job.numjobs;
      const reads = job.rw === 'randrw' ? 0.7 : job.rw.includes('read') ? 1 : 0;
      const options: Record<string, string> = {
        rw: job.rw,
        bs: String(job.bs),
        iodepth: String(job.iodepth),
        numjobs: String(job.numjobs),
      };
      if (job.rw === 'randrw') options.rwmixread = '70';
      const entry: Entry = {
        ...template,
        jobname: job.name,
        'job options': options,
        read: reads > 0 ? direction(readTemplate, rate * reads, job.bs, inFlight, i) : idle,
        write: reads < 1 ? direction(readTemplate, rate * (1 - reads), job.bs, inFlight, i) : idle,
        hostname: host,
        port: 8765,
      };
      entries.push(JSON.stringify(entry));
    }
    disks.push(JSON.stringify({ ...(doc.disk_util[0] as object), name: hdd ? 'sda' : 'nvme0n1', hostname: host, port: 8765 }));
  }
  entries.push(
    JSON.stringify({ ...template, jobname: 'All clients', 'job options': undefined, hostname: fleetHostName(hosts - 1), port: 8765 }),
  );
  return `{"fio version":"fio-3.33","timestamp":1796136961,"time":"Tue Dec  1 14:56:01 2026","global options":${JSON.stringify(doc['global options'])},\n"client_stats":[\n${entries.join(',\n')}\n],\n"disk_util":[\n${disks.join(',\n')}\n]}\n`;
}
