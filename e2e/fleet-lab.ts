// A fleet of fio servers on this machine, each in a network namespace of its own and on a
// loop device of its own capped by the cgroup v1 blkio throttle (throttled-lab.ts): ground
// truth for `diskdelta fleet run` (issue #26). Each host gets a veth pair on a /30 of the
// benchmarking range 198.18.0.0/15 (RFC 2544, never routed): the namespace holds its own
// address, its link route and nothing else, no default route, so a host reaches exactly the
// one address the lab gave its peer and no other (checked by reachableFrom). Its ext4 is
// bind-mounted at the same folder in a mount namespace of its own, so one job file's
// `directory=` lands on a different device on each host, as on real machines.
// Every step is undone by tearDown, each on its own, whatever failed before it.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readlinkSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { labUnavailable, setUpThrottledLab, type LabCaps, type ThrottledLab } from './throttled-lab.ts';
import { ownProcess, signalOwn } from '../scripts/own-process.ts';

export interface FleetLabHost {
  /** The namespace's name (ip netns). */
  netns: string;
  /** The host's address: where its fio --server listens, on fio's default port. */
  address: string;
  /** This machine's end of the veth pair. */
  peerAddress: string;
  /** host:port as the imported runs carry it (fio.host). */
  key: string;
  caps: LabCaps;
  lab: ThrottledLab;
  server: ChildProcess;
}

export interface FleetLab {
  hosts: FleetLabHost[];
  /** The folder every host's test file goes in: its own ext4 there, this machine's empty folder here. */
  folder: string;
  /** The hosts file for `fleet run --hosts`. */
  hostsFile: string;
  /** Kills every process in the host's namespace (its fio --server and what it forked) and waits for them to end. */
  kill(host: FleetLabHost): void;
  tearDown(): void;
}

const FIO_PORT = 8765;

/** Why the fleet lab cannot run here, or null. */
export function fleetLabUnavailable(): string | null {
  const base = labUnavailable();
  if (base) return base;
  if (spawnSync('ip', ['netns', 'list']).status !== 0) return 'needs iproute2 with network namespaces (ip netns)';
  if (spawnSync('fio', ['--version']).status !== 0) return 'needs fio';
  if (spawnSync('unshare', ['--version']).status !== 0) return 'needs unshare (util-linux)';
  return null;
}

function run(cmd: string, args: string[]): string {
  const r = spawnSync(cmd, args, { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')}: ${(r.stderr || r.error?.message || '').trim()}`);
  return r.stdout.trim();
}

/** The pids in a namespace ([] when it is gone). */
function pidsIn(netns: string): number[] {
  const r = spawnSync('ip', ['netns', 'pids', netns], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.split('\n').filter(Boolean).map(Number) : [];
}

/** The namespace's identity as /proc/PID/ns/net names it ("net:[4026532281]"), or null when it is gone. */
function netnsId(netns: string): string | null {
  const ino = statSync(`/run/netns/${netns}`, { throwIfNoEntry: false })?.ino;
  return ino === undefined ? null : `net:[${ino}]`;
}

function netnsOf(pid: number): string | null {
  try {
    return readlinkSync(`/proc/${pid}/ns/net`);
  } catch {
    return null;
  }
}

function killAll(netns: string): void {
  for (let i = 0; i < 100; i++) {
    const pids = pidsIn(netns);
    if (pids.length === 0) return;
    // Each only while it is still the process listed (scripts/own-process.ts): one that ended
    // meanwhile may have handed its pid to a process outside the namespace. Held first, then
    // checked to be in the namespace: the start time ties that check to the process signalled.
    const ns = netnsId(netns);
    for (const pid of pids) {
      const own = ownProcess(pid);
      if (own && ns !== null && netnsOf(pid) === ns) signalOwn(own, 'SIGKILL');
    }
    spawnSync('sleep', ['0.05']);
  }
  throw new Error(`processes ${pidsIn(netns).join(', ')} in ${netns} did not end after SIGKILL`);
}

/** A /24 of 198.18.0.0/15 with no route on this machine (another lab's leftovers, a real network). */
function freeSubnet(): string {
  for (let k = 0; k < 256; k++) {
    const third = (process.pid + k) % 256;
    const prefix = `198.18.${third}`;
    if (
      run('ip', ['-4', 'route', 'show', 'to', 'match', `${prefix}.1`])
        .split('\n')
        .every((l) => l.startsWith('default') || l === '')
    )
      return prefix;
  }
  throw new Error('no /24 of 198.18.0.0/15 is free of routes here');
}

/**
 * Waits until the server listens: its socket in LISTEN state (0A) in /proc/PID/net/tcp, which
 * shows the server's own namespace (fio's "listening" line sits in a pipe buffer until it exits).
 */
async function waitListening(server: ChildProcess, address: string, what: string): Promise<void> {
  const hex = (address.split('.').map(Number).reverse() as number[])
    .map((b) => b.toString(16).padStart(2, '0'))
    .join('')
    .toUpperCase();
  const local = `${hex}:${FIO_PORT.toString(16).toUpperCase().padStart(4, '0')}`;
  let said = '';
  server.stdout?.on('data', (d: Buffer) => (said += d.toString()));
  server.stderr?.on('data', (d: Buffer) => (said += d.toString()));
  for (let i = 0; i < 200; i++) {
    if (server.exitCode !== null) throw new Error(`${what}: fio --server ended (exit ${server.exitCode}) before listening: ${said.trim()}`);
    let table = '';
    try {
      table = readFileSync(`/proc/${server.pid}/net/tcp`, 'utf8');
    } catch {
      // not yet in its namespace, or ended (seen on the next round)
    }
    if (table.split('\n').some((l) => l.trim().split(/\s+/)[1] === local && l.trim().split(/\s+/)[3] === '0A')) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${what}: fio --server did not listen on ${address}:${FIO_PORT} within 20 s: ${said.trim()}`);
}

/** Sets up one namespaced, throttled fio server per entry of `caps`. */
export async function setUpFleetLab(opts: { name: string; caps: LabCaps[]; sizeBytes: number }): Promise<FleetLab> {
  const dir = mkdtempSync(join(tmpdir(), `${opts.name}-`));
  const folder = join(dir, 'disk');
  mkdirSync(folder);
  const hosts: FleetLabHost[] = [];
  const made: Array<() => void> = [];
  const tearDown = () => {
    const errors: string[] = [];
    for (const undo of made.reverse()) {
      try {
        undo();
      } catch (error) {
        errors.push((error as Error).message);
      }
    }
    made.length = 0;
    rmSync(dir, { recursive: true, force: true });
    if (errors.length > 0) throw new Error(`fleet lab teardown: ${errors.join('; ')}`);
  };
  try {
    const prefix = freeSubnet();
    for (const [i, caps] of opts.caps.entries()) {
      const netns = `${opts.name}-${process.pid}-${i}`;
      const outside = `ddf${process.pid}o${i}`;
      const inside = `ddf${process.pid}i${i}`;
      const peerAddress = `${prefix}.${4 * i + 1}`;
      const address = `${prefix}.${4 * i + 2}`;
      const lab = setUpThrottledLab({ name: `${opts.name}${i}`, sizeBytes: opts.sizeBytes, caps, filesystem: true });
      made.push(() => lab.tearDown());
      run('ip', ['netns', 'add', netns]);
      made.push(() => {
        killAll(netns);
        run('ip', ['netns', 'del', netns]);
      });
      run('ip', ['link', 'add', outside, 'type', 'veth', 'peer', 'name', inside]);
      // Deleting one end deletes both; the namespace's deletion does it too, but asynchronously.
      made.push(() => {
        if (spawnSync('ip', ['link', 'show', outside]).status === 0) run('ip', ['link', 'del', outside]);
      });
      run('ip', ['link', 'set', inside, 'netns', netns]);
      run('ip', ['addr', 'add', `${peerAddress}/30`, 'dev', outside]);
      run('ip', ['link', 'set', outside, 'up']);
      run('ip', ['-n', netns, 'addr', 'add', `${address}/30`, 'dev', inside]);
      run('ip', ['-n', netns, 'link', 'set', inside, 'up']);
      run('ip', ['-n', netns, 'link', 'set', 'lo', 'up']);
      // The server joins the host's blkio group first (the namespace's own /sys has no cgroup
      // folders), so it and every job it forks are capped on that device; then it enters the
      // network namespace and mounts the host's ext4 at the common folder in a mount namespace
      // of its own.
      const inner = `mount --bind '${lab.mountPoint}' '${folder}' || exit 7; exec fio --server=ip:${address},${FIO_PORT}`;
      const script = lab.joinGroup(`ip netns exec ${netns} unshare --mount --propagation private sh -c "${inner}"`);
      const server = spawn('sh', ['-c', script], { stdio: ['ignore', 'pipe', 'pipe'] });
      const host: FleetLabHost = { netns, address, peerAddress, key: `${address}:${FIO_PORT}`, caps, lab, server };
      hosts.push(host);
      await waitListening(server, address, `host ${i} (${address})`);
    }
  } catch (error) {
    tearDown();
    throw error;
  }
  return {
    hosts,
    folder,
    hostsFile: hosts.map((h) => h.address).join('\n') + '\n',
    kill: (host) => killAll(host.netns),
    tearDown,
  };
}

/** Whether a route from inside `netns` reaches `address` (ip route get; no packet is sent). */
export function reachableFrom(netns: string, address: string): boolean {
  return spawnSync('ip', ['-n', netns, 'route', 'get', address]).status === 0;
}

/** Namespaces, veths and loop devices this lab's name still has on the machine (none after tearDown). */
export function leftovers(name: string): string[] {
  const out: string[] = [];
  const ns = spawnSync('ip', ['netns', 'list'], { encoding: 'utf8' }).stdout ?? '';
  out.push(...ns.split('\n').filter((l) => l.startsWith(`${name}-${process.pid}-`)));
  const links = spawnSync('ip', ['-br', 'link'], { encoding: 'utf8' }).stdout ?? '';
  out.push(...links.split('\n').filter((l) => l.startsWith(`ddf${process.pid}`)));
  const loops = spawnSync('losetup', ['-a'], { encoding: 'utf8' }).stdout ?? '';
  out.push(...loops.split('\n').filter((l) => l.includes(`/${name}`)));
  if (existsSync(`/sys/fs/cgroup/blkio/${name}0-${process.pid}`)) out.push(`blkio group ${name}0-${process.pid}`);
  return out;
}
