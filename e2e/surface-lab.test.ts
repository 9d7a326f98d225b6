// #41 item 3's lab: the surface of a device made of two parts of known speed. In a QEMU guest
// (e2e/dm-crypt-lab.ts boots it) two virtio disks read at different QEMU throttles
// (-drive throttling.bps-read: the host's truth, whatever the guest does) and device-mapper
// concatenates them (dmsetup linear: the first disk's sectors, then the second's). The real
// `diskdelta surface --json` runs on the concatenation as root: its curve must show each part's
// speed (±5 %) over its own offsets, and the boundary between the zones must lie within 2 % of
// the first disk's size. The worker's own `surface` runs first (C, seconds): a Node start costs
// minutes under TCG on a loaded host, and its curve is kept beside the CLI's.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { assertStepsOk, labKernelOrReason, labModprobe, runInGuest, type GuestResult } from './dm-crypt-lab.ts';
import { AGAIN_IF_NODE_DIED, guestDiskdelta } from './lab-node-death.ts';
import { analyzeSurface, type SurfaceRead } from '../electron/shared/analysis/surface.ts';
import { surfaceReadOf } from '../electron/node/bench/kinds/surface.ts';
import { parseStdout } from '../native/test/worker-harness.ts';

const REPO = fileURLToPath(new URL('..', import.meta.url));
const DD = guestDiskdelta(REPO);
const WORKER = join(REPO, 'native', 'build', 'diskdelta-worker');
const LAB_OUT = join(REPO, 'test-results', 'lab');
const MiB = 2 ** 20;
/** The two parts: sizes and QEMU read throttles (bytes/s). Small: TCG is slow and the host shared. */
const PARTS = [
  { bytes: 160 * MiB, bps: 8 * MiB },
  { bytes: 240 * MiB, bps: 16 * MiB },
] as const;
// 8 MiB samples 10 MiB apart: QEMU's throttle lets a tenth of a second's bytes (0.8 and 1.6 MiB)
// through at once after any pause, which the first 1 MiB read of a sample absorbs (analysis/
// surface.ts times the reads after it); at most one sample straddles the boundary.
const SAMPLES = 40;
const SAMPLE_BYTES = 8 * MiB;

const { kernel, reason } = labKernelOrReason();
const dmsetup = ['/usr/sbin/dmsetup', '/sbin/dmsetup', '/usr/bin/dmsetup'].find((p) => existsSync(p));
const guests: GuestResult[] = [];
after(() => {
  for (const g of guests) g.dispose();
});

interface SurfaceJson {
  id: number;
  deviceBytes: number;
  zones: Array<{ start: number; end: number; bytesPerSec: number }>;
  slowest: number | null;
}

/** Each part's speed and the boundary, judged on a curve's zones. */
function judge(label: string, zones: SurfaceJson['zones'], slowest: number | null) {
  const shown = zones
    .map((z) => `${(z.start / MiB).toFixed(2)}–${(z.end / MiB).toFixed(2)} MiB ${(z.bytesPerSec / MiB).toFixed(2)} MiB/s`)
    .join('; ');
  console.log(`surface lab (${label}): ${shown}`);
  assert.equal(zones.length, 2, `${label}: two zones (${shown})`);
  PARTS.forEach((part, i) => {
    const z = zones[i]!;
    assert.ok(
      Math.abs(z.bytesPerSec / part.bps - 1) <= 0.05,
      `${label}: part ${i + 1} reads at ${z.bytesPerSec / MiB} MiB/s, its throttle ${part.bps / MiB} MiB/s ±5 %`,
    );
  });
  const boundary = PARTS[0].bytes;
  assert.ok(
    Math.abs(zones[0]!.end - boundary) <= 0.02 * boundary,
    `${label}: boundary at ${zones[0]!.end / MiB} MiB, truth ${boundary / MiB} MiB ±2 %`,
  );
  assert.equal(slowest, 0, `${label}: the slower part is named the slowest zone`);
}

test(
  'surface of a dm-linear concatenation of two throttled disks: each part at its speed ±5 %, the boundary within 2 %',
  { timeout: 1_700_000 },
  async (t) => {
    if (reason || !kernel) return t.skip(reason ?? 'no lab kernel');
    if (!dmsetup) return t.skip('needs dmsetup in the shared root (Debian dmsetup)');
    const sectors = PARTS.map((p) => p.bytes / 512);
    const script = `DD='${DD}'
step() { echo "$(cut -d' ' -f1 /proc/uptime) s: $*" >> steps.txt; }
${AGAIN_IF_NODE_DIED}
${labModprobe(kernel, ['dm-mod'])}
i=0; while { [ ! -b /dev/vda ] || [ ! -b /dev/vdb ]; } && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
step dmsetup
printf '0 ${sectors[0]} linear /dev/vda 0\\n${sectors[0]} ${sectors[1]} linear /dev/vdb 0\\n' | ${dmsetup} --noudevsync --verifyudev create two-part > dm.out 2>&1
echo $? > dm.rc
# dmsetup without udev: the node may not be made for us.
[ -b /dev/mapper/two-part ] || { mkdir -p /dev/mapper; mknod /dev/mapper/two-part b $(${dmsetup} info -c --noheadings -o major,minor two-part | tr ':' ' '); }
step worker
${WORKER} surface --target /dev/mapper/two-part --samples ${SAMPLES} --sample-bytes ${SAMPLE_BYTES} --block ${MiB} --accesses 10 > /tmp/worker.ndjson 2> worker.err
echo $? > worker.rc
# Kept on the guest's tmpfs while it reads: a line written over 9p under TCG is a pause between samples.
cp /tmp/worker.ndjson worker.ndjson
step cli
# Kept in a library on the guest's tmpfs (not over 9p), copied out for the host to export: the
# real two-part run is what the surface chart's screenshots and e2e/data/ fixture are made from.
again_if_node_died $DD surface /dev/mapper/two-part --samples ${SAMPLES} --sample-bytes 8MiB --accesses 10 --json --db /tmp/lib.sqlite > cli.json 2> cli.err
echo $? > cli.rc
for f in /tmp/lib.sqlite*; do cp "$f" "surface-$(basename "$f")"; done
step done
`;
    const g = await runInGuest(kernel, {
      disks: PARTS.map((p) => ({ bytes: p.bytes, options: `throttling.bps-read=${p.bps}` })),
      memoryMiB: 1024,
      timeoutMs: Number(process.env['DISKDELTA_LAB_TIMEOUT_MS'] ?? 1_600_000),
      script,
    });
    guests.push(g);
    const read = assertStepsOk(g, []);
    assert.equal(read('dm.rc').trim(), '0', `dmsetup create: ${read('dm.out')}`);
    mkdirSync(LAB_OUT, { recursive: true });
    for (const name of ['worker.ndjson', 'cli.json']) writeFileSync(join(LAB_OUT, `surface-${name}`), read(name));

    // The worker's curve, analysed here: the measurement itself, without Node in the guest.
    assert.equal(read('worker.rc').trim(), '0', `worker: ${read('worker.err')}`);
    const lines = parseStdout(read('worker.ndjson'));
    const hello = lines.find((m) => m.type === 'hello');
    assert.ok(hello?.type === 'hello' && hello.size === PARTS[0].bytes + PARTS[1].bytes, JSON.stringify(hello));
    const reads: SurfaceRead[] = lines.flatMap((m) => surfaceReadOf(m) ?? []);
    const fromWorker = analyzeSurface(reads, [], hello.size);
    judge('worker', fromWorker.zones, fromWorker.slowest);

    // The CLI's, as a user runs it.
    assert.equal(read('cli.rc').trim(), '0', `diskdelta surface: ${read('cli.err')}`);
    const cli = JSON.parse(read('cli.json')) as SurfaceJson;
    assert.equal(cli.deviceBytes, PARTS[0].bytes + PARTS[1].bytes);
    judge('diskdelta surface', cli.zones, cli.slowest);

    // The kept run, exported on the host from the guest's library (a second Node start in the
    // guest costs minutes under TCG): test-results/lab/surface-export.json, a DiskDelta export
    // that `diskdelta import` reads, for looking at the real two-part curve in the app.
    // An earlier run's journal beside this run's library would be replayed into it: gone first.
    const libraryFiles = (dir: string) => readdirSync(dir).filter((n) => n.startsWith('surface-lib.sqlite'));
    for (const name of libraryFiles(LAB_OUT)) rmSync(join(LAB_OUT, name));
    for (const name of libraryFiles(g.share)) copyFileSync(join(g.share, name), join(LAB_OUT, name));
    const exported = spawnSync(
      process.execPath,
      [
        join(REPO, 'bin', 'diskdelta.js'),
        'export',
        String(cli.id),
        '--db',
        join(LAB_OUT, 'surface-lib.sqlite'),
        '--out',
        join(LAB_OUT, 'surface-export.json'),
        '--force',
      ],
      { encoding: 'utf8', timeout: 120_000 },
    );
    assert.equal(exported.status, 0, `export of the kept run: ${exported.stderr}`);
  },
);
