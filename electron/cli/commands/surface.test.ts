// `diskdelta surface`: on a loop device over a small file, the run is measured, kept as a run of
// the surface kind and shown by `show`; bad input (a missing path, a folder, a regular file, a
// sample size off 4 KiB) is exit 2 with what to do, and nothing is kept; a device the user may
// not read without --elevate is exit 3 (TARGET) with the elevate action, as for `run`. Speeds are not asserted here: the lab (e2e/surface-lab.test.ts)
// does that on devices of known speed.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCli } from '../run-cli-in-process.ts';
import { formatBytes, formatLatency, formatThroughput } from '../../shared/analysis/units.ts';
import { cannotReachCheckout, reachableCopy } from '../../../scripts/other-user.ts';

const CLI = fileURLToPath(new URL('../../../bin/diskdelta.js', import.meta.url));
const MiB = 2 ** 20;
const isRoot = process.getuid?.() === 0;
const runuser = ['/usr/sbin/runuser', '/sbin/runuser', '/usr/bin/runuser'].find((p) => existsSync(p));
const hashOf = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');
let dir = '';
let loop = '';

before(() => {
  // In RAM where there is /dev/shm: a loop over a file on the machine's disk takes that disk's
  // machine-wide lock, which the fast loop refuses (another run on it would make this wait).
  dir = mkdtempSync(join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'dd-surface-cli-'));
  if (!isRoot) return;
  writeFileSync(join(dir, 'disk.img'), Buffer.alloc(32 * MiB, 0x5a));
  // Writable: what keeps the bytes is DiskDelta's rule, not the kernel's refusal of a read-only loop.
  const l = spawnSync('losetup', ['-f', '--show', join(dir, 'disk.img')], { encoding: 'utf8', timeout: 30_000 });
  if (l.status === 0) loop = l.stdout.trim();
});
after(() => {
  if (loop) spawnSync('losetup', ['-d', loop], { timeout: 30_000 });
  rmSync(dir, { recursive: true, force: true });
});

test('bad input is exit 2 with what to do, and keeps nothing', async () => {
  const db = join(dir, 'bad.sqlite');
  writeFileSync(join(dir, 'file'), 'x');
  const cases: Array<[string[], RegExp]> = [
    [['surface', join(dir, 'missing')], /does not exist: give a disk's block device/],
    [['surface', dir], /is not a block device: the surface is read from a whole disk/],
    [['surface', join(dir, 'file')], /is not a block device/],
    [['surface'], /give one DEVICE/],
    [['surface', '/dev/null', '--samples', '2'], /--samples/],
    [['surface', '/dev/null', '--label', 'old\x1bHDD'], /--label holds the control character/],
  ];
  for (const [args, says] of cases) {
    const r = await runCli([...args, '--db', db]);
    assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr, says, args.join(' '));
  }
  assert.equal(existsSync(db), false, 'no library made for refused input');
});

test('a sample size off 4 KiB is exit 2, said by the kind (its one check) before a library is made; --json gets the error object', async () => {
  const db = join(dir, 'sample.sqlite');
  const r = await runCli(['surface', '/dev/null', '--sample-bytes', '5000', '--json', '--db', db]);
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, /must be a multiple of 4 KiB/);
  assert.equal((JSON.parse(r.stdout) as { error: { code: string } }).error.code, 'usage');
  assert.equal(existsSync(db), false, 'no library made');
});

test(
  'a device this user may not read, without --elevate: exit 3 (TARGET) naming --elevate, as run says it; --json gets the error object (run as nobody)',
  {
    skip: !isRoot ? 'needs root (to run as nobody)' : !runuser ? 'no runuser here' : cannotReachCheckout(CLI),
  },
  (t) => {
    if (!loop) return t.skip('losetup -f -r failed: no free loop device');
    const r = spawnSync(runuser!, ['-u', 'nobody', '--', reachableCopy(process.execPath), CLI, 'surface', loop, '--no-save', '--json'], {
      encoding: 'utf8',
      env: { ...process.env, HOME: '/nonexistent' },
      timeout: 60_000,
    });
    assert.equal(r.status, 3, r.stderr);
    assert.match(r.stderr, /needs administrator rights/);
    assert.match(r.stderr, /pass --elevate/);
    const { error } = JSON.parse(r.stdout) as { error: { code: string; exitName: string; action: string } };
    assert.equal(error.code, 'needs-elevation');
    assert.equal(error.exitName, 'TARGET');
    assert.match(error.action, /pass --elevate/);
  },
);

test('on a loop device: measured read-only, kept as a surface run, shown with its zones', async (t) => {
  if (!isRoot || !loop) return t.skip('needs root and a loop device (losetup -f over a 32 MiB file)');
  const db = join(dir, 'lib.sqlite');
  const before = hashOf(join(dir, 'disk.img'));
  const r = await runCli([
    'surface',
    loop,
    '--samples',
    '12',
    '--sample-bytes',
    '1MiB',
    '--accesses',
    '8',
    '--label',
    'old HDD',
    '--json',
    '--db',
    db,
  ]);
  assert.equal(r.code, 0, r.stderr);
  const out = JSON.parse(r.stdout) as {
    id: number;
    deviceBytes: number;
    points: Array<{ offset: number; bytes: number }>;
    slowest: number;
    zones: Array<{ start: number; end: number; bytesPerSec: number }>;
    accessNs: { count: number; median: number };
  };
  assert.equal(out.deviceBytes, 32 * MiB);
  assert.equal(out.points.length, 12);
  assert.equal(out.points[0]!.offset, 0);
  assert.equal(out.points.at(-1)!.offset + out.points.at(-1)!.bytes, 32 * MiB);
  assert.equal(out.zones[0]!.start, 0);
  assert.equal(out.zones.at(-1)!.end, 32 * MiB);
  assert.ok(out.slowest >= 0 && out.slowest < out.zones.length);
  assert.equal(out.accessNs.count, 8);
  assert.equal(hashOf(join(dir, 'disk.img')), before, 'nothing written to the (writable) device');
  const list = await runCli(['list', '--db', db]);
  assert.match(list.stdout, /\bsurface\b.*old HDD/, 'kept under its --label');
  const shown = await runCli(['show', String(out.id), '--db', db]);
  assert.equal(shown.code, 0, shown.stderr);
  assert.match(shown.stdout, /Surface: the zones of the read speed/);
  // Each said once (the surface's own lines), and what --json said.
  const slowestLines = shown.stdout.split('\n').filter((l) => /slowest/.test(l));
  assert.equal(slowestLines.length, 1, shown.stdout);
  const zone = out.zones[out.slowest]!;
  assert.ok(
    slowestLines[0]!.includes(
      `slowest: zone ${out.slowest + 1} of ${out.zones.length}, bytes ${formatBytes(zone.start)} – ${formatBytes(zone.end)}`,
    ) && slowestLines[0]!.endsWith(formatThroughput(zone.bytesPerSec, 'MB')),
    slowestLines[0],
  );
  const accessLines = shown.stdout.split('\n').filter((l) => /access time/.test(l));
  assert.equal(accessLines.length, 1, shown.stdout);
  assert.match(accessLines[0]!, /access time: .* \(8 random 4 KiB reads\)/);
  assert.ok(accessLines[0]!.includes(`${formatLatency(out.accessNs.median)} median`), accessLines[0]);
  assert.doesNotMatch(shown.stdout, /read speed at offset/, 'the curve points are not listed one by one');
  // The surface has no rate of its own: no row of dashes in a rate table.
  assert.doesNotMatch(shown.stdout, /^\s*surface\s+—/m, shown.stdout);
});
