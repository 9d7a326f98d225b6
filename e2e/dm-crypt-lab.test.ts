// The encryption assessment in the dm-crypt lab (e2e/dm-crypt-lab.ts): real dm-crypt, LUKS2
// and AF_ALG in a QEMU guest, the real `diskdelta` inside it. Four boots, each combining checks:
//
//   cipher-bound (disk unthrottled, a sparse file read at GB/s; the emulated cipher at MB/s):
//     - `diskdelta-worker ciphers` (AF_ALG) on cryptsetup's method within ±10 % of `cryptsetup
//       benchmark`, aes-xts 256/512, in ABBA rounds in the same guest (cryptsetup-rounds.ts);
//     - the throwaway mapping: the mapping is cipher-bound (seq read/write);
//     - SIGKILL mid-run leaves a mapping + loop + file; the next run removes them and says so;
//     - files on the guest's filesystem other than DiskDelta's are unchanged (md5);
//     - an existing LUKS2 volume (luksFormat in the guest, ext4 on it, the run on a folder there):
//       read-only (the disk's sectors-written counter does not move); then its sequential write
//       through DiskDelta's test file there, forecast from the disk's read beneath (never
//       written) and the cipher;
//     - the forecast model in alternating rounds on the plain ext4 and the LUKS2 volume, within
//       ±15 % plus the rounds' spread (forecast-rounds.ts, judge-rounds.ts).
//   disk-bound (both disks throttled by QEMU far below the cipher): the same runs, disk-bound,
//     the forecast within ±15 % of the mapping (QEMU's cap holds both still).
//   TRIM through LUKS2 (a disk that takes discards): `diskdelta trim-audit` with the volume opened
//     without and then with --allow-discards: the counters show TRIM stopping at dm-crypt, then
//     reaching the virtio disk, as `dmsetup table` says.
//   as nobody (pkexec and polkitd started in the guest): the helper's read-only throwaway mapping,
//     reads measured, nothing left afterwards, and a SIGKILLed `crypt-hold` leaves no mapping.
//
// Figures under emulation say nothing about real hardware; the relations are what is checked.
// The emulated CPU's speed follows the host's load: on a loaded host the rounds' spread passes
// its ceiling and an accuracy reads "not judged", with every figure printed.
// Skips with the reason where QEMU, busybox-static, cpio, kmod or cryptsetup are missing.
import { existsSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { labKernelOrReason, labModprobe, runInGuest, type GuestResult, type LabKernel } from './dm-crypt-lab.ts';
import { AGAIN_IF_NODE_DIED, guestDiskdelta } from './lab-node-death.ts';
import type { EncryptionReport } from '../electron/node/crypto/encryption-run.ts';
import { jobSpec } from '../electron/node/bench/worker-argv.ts';
import { judgeRounds, MIN_ROUNDS, type RoundsJudgement } from './judge-rounds.ts';
import { forecastRounds } from './forecast-rounds.ts';
import { cipherRounds } from './cryptsetup-rounds.ts';

const REPO = fileURLToPath(new URL('..', import.meta.url));
const WORKER = join(REPO, 'native', 'build', 'diskdelta-worker');
const HELPER = join(REPO, 'native', 'build', 'diskdelta-helper');
const DD = guestDiskdelta(REPO);
const POLICY_IN = join(REPO, 'assets', 'polkit', 'org.diskdelta.helper.policy.in');

/** What the guest's polkit needs from the shared root, or null. */
function polkitMissing(): string | null {
  const needed: [string, string][] = [
    ['/usr/bin/pkexec', 'pkexec'],
    ['/usr/lib/polkit-1/polkitd', 'polkitd'],
    ['/usr/bin/dbus-daemon', 'dbus'],
    ['/usr/bin/setpriv', 'util-linux'],
  ];
  for (const [path, pkg] of needed) if (!existsSync(path)) return `the guest's polkit needs ${path} (Debian ${pkg})`;
  return null;
}
// Accuracy — diskdelta's cipher figures against cryptsetup's, the forecast against the mapping —
// is a ratio of two measurements in an emulated CPU whose speed follows the host's load (it
// drifted 45–130 % within one boot at load 4.6; CI once saw a single pair +224 % off at load 3).
// So each is measured in alternating rounds (ABBA for the ciphers, plain / cipher / dm-crypt
// mirrored every other round for the forecast: forecast-rounds.ts), and judged on the median of
// the per-round ratios, allowed the issue's ±10 % / ±15 % plus the rounds' own spread, up to a
// ceiling past which it is "not judged" with the reason (judge-rounds.ts). `npm test` asserts
// what holds at any speed (the shapes below, the safety checks) and prints each accuracy with
// its verdict; `npm run bench:dm-crypt` (DISKDELTA_LAB_ACCURACY=1) fails on an accuracy OUTSIDE.
const JUDGE_ACCURACY = process.env['DISKDELTA_LAB_ACCURACY'] === '1';
const FORECAST_TOLERANCE = 0.15;
const CIPHER_TOLERANCE = 0.1;
/**
 * The forecast rounds: the tests, how many rounds, each test's window in a round (s). The
 * cipher's ABBA rounds per key size. `npm test` only prints the accuracies, so it takes the
 * fewest rounds judge-rounds.ts calls a spread (3) and keeps CI's time; the bench takes more.
 */
const ROUND_TESTS = ['seq1m-q8t1-read', 'seq1m-q8t1-write'];
const ROUNDS = JUDGE_ACCURACY ? 6 : MIN_ROUNDS;
const CIPHER_ROUNDS = JUDGE_ACCURACY ? 4 : MIN_ROUNDS;
const ROUND_SECONDS = 1;
const median = (xs: number[]) => {
  const s = [...xs].sort((x, y) => x - y);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
const mb = (bps: number) => (bps / 1e6).toFixed(2);

const { kernel, reason } = labKernelOrReason();
const guests: GuestResult[] = [];
after(() => {
  for (const g of guests) g.dispose();
});

/**
 * Shell: a folder on ext4 on /dev/vda with bystander files, and the LUKS2 volume on /dev/vdb.
 * `-b 4096`: mkfs picks 1 KiB blocks below 512 MiB, and a write at a 1 KiB offset reaches QEMU's
 * cache=none (O_DIRECT) file unaligned for this host, which fails it as an I/O error in the guest.
 */
function setup(k: LabKernel): string {
  return `
${labModprobe(k)}
mkfs.ext4 -q -F -b 4096 -E lazy_itable_init=0,lazy_journal_init=0 /dev/vda
mkdir -p /run/a && mount -o noatime /dev/vda /run/a && mkdir -p /run/a/target/keep
head -c 8388608 /dev/urandom > /run/a/bystander.bin
head -c 1048576 /dev/urandom > /run/a/target/keep/note.bin
sums() { (cd /run/a && find . -type f ! -name '.diskdelta-*' | sort | xargs md5sum); }
sums > sums-before.txt
printf 'lab-passphrase' > /tmp/pass
cryptsetup luksFormat --type luks2 --batch-mode --pbkdf pbkdf2 --pbkdf-force-iterations 1000 --key-file /tmp/pass /dev/vdb
cryptsetup open --key-file /tmp/pass /dev/vdb labluks
mkfs.ext4 -q -F -b 4096 -E lazy_itable_init=0,lazy_journal_init=0 /dev/mapper/labluks
mkdir -p /run/l && mount -o noatime /dev/mapper/labluks /run/l && mkdir -p /run/l/dir
head -c 1048576 /dev/urandom > /run/l/keep.bin && md5sum /run/l/keep.bin > luks-keep-before.txt
sync
`;
}

/**
 * Shell: the throwaway run (`tests`, read and written), then on the LUKS2 volume a read-only run
 * (the disk's sectors-written counter around it) and a run of the sequential write, which goes
 * through DiskDelta's test file on the volume's filesystem and reads the disk beneath for it.
 */
function runs(tests: string, args: string): string {
  return `
again_if_node_died $DD encryption --target /run/a/target --mode throwaway --tests ${tests} ${args} --json --no-save > throwaway.json 2> throwaway.err; echo $? > throwaway.rc
sync; cat /sys/block/vdb/stat > vdb-before.txt
again_if_node_died $DD encryption --target /run/l/dir --mode existing --tests seq1m-q8t1-read ${args} --json --no-save > luks.json 2> luks.err; echo $? > luks.rc
cat /sys/block/vdb/stat > vdb-after.txt
again_if_node_died $DD encryption --target /run/l/dir --mode existing --tests seq1m-q8t1-write ${args} --json --no-save > luks-write.json 2> luks-write.err; echo $? > luks-write.rc
md5sum /run/l/keep.bin > luks-keep-after.txt; ls -A /run/l/dir > luks-dir-after.txt
`;
}

const read = (g: GuestResult, name: string) => (existsSync(join(g.share, name)) ? readFileSync(join(g.share, name), 'utf8') : '');

function report(g: GuestResult, name: 'throwaway' | 'luks' | 'luks-write'): EncryptionReport {
  const rc = read(g, `${name}.rc`).trim();
  assert.equal(rc, '0', `${name} run exit status; stderr:\n${read(g, `${name}.err`)}\noutput:\n${g.output.slice(-2000)}`);
  return JSON.parse(read(g, `${name}.json`)) as EncryptionReport;
}

/**
 * Checks that do not stop at the first failure: a guest boot is expensive, so every check of
 * it runs and the test fails at the end with all that did not hold, next to every figure.
 */
class Checks {
  readonly problems: string[] = [];
  readonly figures: string[] = [];
  that(ok: boolean, message: string): void {
    if (!ok) this.problems.push(message);
  }
  readonly unjudged: string[] = [];
  /**
   * An accuracy (see JUDGE_ACCURACY): in `npm test` printed with its verdict; in bench:dm-crypt a
   * check when judged, and when not judged (too few rounds, or a spread past the ceiling) said
   * with the reason, never passed silently.
   */
  judge(line: string, verdict: RoundsJudgement['verdict'], failure: string): void {
    const word = verdict === 'within' ? 'within the tolerance' : verdict === 'outside' ? 'OUTSIDE the tolerance' : 'not judged';
    if (!JUDGE_ACCURACY) this.unjudged.push(`accuracy ${word} (judged by npm run bench:dm-crypt): ${line}`);
    else if (verdict === 'not-judged') this.unjudged.push(`NOT JUDGED: ${line}`);
    else this.that(verdict === 'within', failure);
  }
  attempt(what: string, fn: () => void): void {
    try {
      fn();
    } catch (error) {
      this.problems.push(`${what}: ${(error as Error).message.split('\n').slice(0, 6).join('\n')}`);
    }
  }
  done(): void {
    console.log([...this.figures, ...this.unjudged].join('\n'));
    assert.deepEqual(this.problems, [], `figures:\n${this.figures.join('\n')}`);
  }
}

/** A guest that ran its script to the end (else its console and output), and the checks of it, opened with its timings. */
function checksOf(g: GuestResult): Checks {
  assert.equal(g.status, 0, `the guest ran the script to the end; console:\n${g.console.slice(-3000)}\noutput:\n${g.output.slice(-3000)}`);
  const c = new Checks();
  c.figures.push(
    `guest: boot ${g.bootMs === null ? '?' : (g.bootMs / 1000).toFixed(0)} s, boot + script + power-off ${(g.totalMs / 1000).toFixed(0)} s (load average ${loadavg()[0]!.toFixed(1)})`,
  );
  const deaths = read(g, 'node-deaths.txt').trim();
  if (deaths) c.figures.push(`the guest's Node died (name_node_death):\n${deaths}`);
  return c;
}

/**
 * Forecast vs measured for the given tests of one `encryption` run. Disk-bound, QEMU's throttle
 * (`capBps`) is the truth both figures are held to: two measurements of it minutes apart differ
 * by their noise (CI saw raw 2.84 vs dm-crypt 3.13 MB/s under a 3.15 MB/s cap), so one is never
 * judged against the other, and the forecast is judged here. Cipher-bound, one pair is one
 * sample of an emulated CPU that drifts by tens of % within a minute: its error is printed, and
 * the forecast model is judged on the alternating rounds (checkForecastRounds).
 */
function checkForecast(c: Checks, r: EncryptionReport, tests: string[], regime: 'cipher' | 'disk', capBps?: number): void {
  for (const test of tests) {
    const v = r.verdict.find((x) => x.test === test);
    const f = r.forecast.find((x) => x.test === test);
    assert.ok(v && f, `${test}: a verdict and a forecast (${JSON.stringify(r.verdict)})`);
    assert.equal(f.provenance, 'estimated');
    const line = `${r.mode} ${test}: raw ${mb(v.rawBytesPerSec)} MB/s${v.rawStandIn ? ` (its read)` : ''}, dm-crypt ${mb(v.encryptedBytesPerSec)}, cipher ${mb(v.cipherBytesPerSec ?? 0)}, forecast ${mb(f.estimatedBytesPerSec)} (${v.ceiling})`;
    const error = f.estimatedBytesPerSec / v.encryptedBytesPerSec - 1;
    const off = `forecast ${error >= 0 ? '+' : ''}${(error * 100).toFixed(1)} %`;
    if (regime === 'cipher') {
      const drift = r.cipherDrift === null ? '' : `, the cipher moved ${(r.cipherDrift * 100).toFixed(0)} % around the run`;
      c.figures.push(`${line}, ${off} (one pair${drift}; the model is judged on the alternating rounds)`);
    } else {
      c.figures.push(`${line}, ${off}, allowed ±${(FORECAST_TOLERANCE * 100).toFixed(0)} %`);
    }
    c.that(v.ceiling === regime, `${line}: expected the ${regime} as the ceiling`);
    // Shapes that hold at any speed: encryption never speeds a disk up (10 % for noise); a
    // cipher-bound mapping is far below its raw disk; a disk-bound one loses under 15 %.
    if (regime === 'cipher') {
      c.that(v.encryptedBytesPerSec <= 1.1 * v.rawBytesPerSec, `${line}: encrypted above raw`);
      c.that(v.encryptedBytesPerSec < 0.5 * v.rawBytesPerSec, `${line}: cipher-bound yet above half the raw disk`);
    } else {
      const cap = capBps!;
      // ±20 %: at 3 MB/s a window held about a dozen 1 MiB I/Os, so one more or less moved the
      // figure by 8 % (CI saw dm-crypt read 3.46 MB/s under a 3.15 MB/s cap); at 6 MB/s 4 %.
      c.that(v.encryptedBytesPerSec <= 1.2 * cap, `${line}: encrypted above the disk's cap ${mb(cap)} MB/s`);
      c.that(v.encryptedBytesPerSec >= 0.8 * cap, `${line}: disk-bound yet encrypted below 80 % of the disk's cap ${mb(cap)} MB/s`);
      const within = Math.abs(error) <= FORECAST_TOLERANCE;
      c.judge(line, within ? 'within' : 'outside', `${line}: forecast off by ${(error * 100).toFixed(1)} %`);
    }
  }
}

/**
 * Shell: the forecast in alternating rounds (forecast-rounds.ts), run by the worker directly
 * (one Node start per round would cost more than the round): DiskDelta's own test file on the
 * plain ext4 (/run/a/target) and on the LUKS2 volume's ext4 (/run/l/dir), each read and written
 * as `encryption` measures them, and the cipher of the volume between the two, in the order
 * plain, cipher, dm-crypt, mirrored every other round. The test files are removed at the end.
 */
function forecastRoundsScript(): string {
  const jobs = ROUND_TESTS.map((t) => `--job ${jobSpec(t)}`).join(' ');
  const run = (dir: string, file: string, out: string) =>
    `$W run --target ${dir} --file "$${file}" --duration ${ROUND_SECONDS} --warmup 0.3 --runs 1 ${jobs} > round-$1-${out}.ndjson 2> round-$1-${out}.err`;
  return `
cryptsetup status labluks > luks-status.txt
LC=$(sed -n 's/^ *cipher: *//p' luks-status.txt); LK=$(sed -n 's/^ *keysize: *//p' luks-status.txt | cut -d' ' -f1)
prepared() { $W prepare --target $1 --size 33554432 | grep '"type":"prepared"' | grep -o '"file":"[^"]*"' | cut -d'"' -f4; }
FA=$(prepared /run/a/target); FL=$(prepared /run/l/dir)
plain() { ${run('/run/a/target', 'FA', 'plain')}; }
mapped() { ${run('/run/l/dir', 'FL', 'dmcrypt')}; }
cipher() { $W ciphers --cipher "$LC:$LK" --sector 65536 --duration 0.5 > round-$1-cipher.ndjson 2> round-$1-cipher.err; }
for r in $(seq ${ROUNDS}); do
  if [ $((r % 2)) = 1 ]; then plain $r; cipher $r; mapped $r; else mapped $r; cipher $r; plain $r; fi
done
rm -f "$FA" "$FL"
`;
}

/** The forecast judged on the rounds: per test, the median of forecast / measured, the rounds' spread its tolerance. */
function checkForecastRounds(c: Checks, g: GuestResult): void {
  c.attempt('the forecast in alternating rounds', () => {
    const status = read(g, 'luks-status.txt');
    const cipher = /cipher:\s*(\S+)/.exec(status)?.[1];
    const keyBits = Number(/keysize:\s*(\d+) bits/.exec(status)?.[1]);
    assert.ok(cipher && keyBits > 0, `cryptsetup status names the volume's cipher and key size:\n${status}`);
    const rounds = Array.from({ length: ROUNDS }, (_, i) => ({
      plain: read(g, `round-${i + 1}-plain.ndjson`),
      dmcrypt: read(g, `round-${i + 1}-dmcrypt.ndjson`),
      cipher: read(g, `round-${i + 1}-cipher.ndjson`),
    }));
    const errors = Array.from(
      { length: ROUNDS },
      (_, i) => read(g, `round-${i + 1}-plain.err`) + read(g, `round-${i + 1}-dmcrypt.err`),
    ).join('');
    for (const t of forecastRounds(rounds, ROUND_TESTS, cipher, keyBits)) {
      const j = judgeRounds(t.ratios, FORECAST_TOLERANCE);
      const forecasts = t.forecast.map((f) => f.estimatedBytesPerSec);
      const line = `rounds ${t.test}, forecast/dm-crypt ${j.text} (${ROUNDS} rounds of ${ROUND_SECONDS} s; medians: plain ${mb(median(t.plain))} MB/s, dm-crypt ${mb(median(t.dmcrypt))}, forecast ${mb(median(forecasts))} from the ${cipher} ${keyBits} bit cipher on ${t.forecast[0]!.cipherThreads} CPUs)`;
      c.figures.push(line);
      // The regime holds at any speed: in every round the cipher is the forecast's ceiling and the
      // mapping measures far below the plain disk.
      c.that(
        t.forecast.every((f) => f.ceiling === 'cipher'),
        `${line}: the cipher is not the ceiling in every round`,
      );
      c.that(
        t.dmcrypt.every((e, i) => e < 0.5 * t.plain[i]!),
        `${line}: a round's mapping above half its plain disk${errors ? `\n${errors.slice(-600)}` : ''}`,
      );
      c.judge(line, j.verdict, `${line}: the forecast is off by ${((j.ratio - 1) * 100).toFixed(1)} %`);
    }
  });
}

/**
 * The LUKS2 volume's write run: the disk beneath only read (its read is the write's raw figure,
 * said as such), the write through DiskDelta's test file in the folder, the forecast held like
 * the others; the volume's other file unchanged and the test file gone.
 */
function checkExistingWrite(c: Checks, g: GuestResult, regime: 'cipher' | 'disk', capBps?: number): void {
  c.attempt(`existing LUKS2, write through the filesystem, ${regime}-bound`, () => {
    const r = report(g, 'luks-write');
    assert.equal(r.mode, 'existing');
    const tests = (record: { results: Array<{ test: string }> }) => record.results.map((x) => x.test);
    assert.deepEqual(tests(r.raw), ['seq1m-q8t1-read'], 'the disk beneath is only read');
    assert.deepEqual(tests(r.encrypted), ['seq1m-q8t1-read']);
    assert.ok(r.encryptedWrites, 'a run of the writes');
    assert.equal(r.encryptedWrites.target.path, '/run/l/dir');
    assert.deepEqual(tests(r.encryptedWrites), ['seq1m-q8t1-write']);
    assert.equal(r.verdict.find((v) => v.test === 'seq1m-q8t1-write')?.rawStandIn, 'seq1m-q8t1-read');
    checkForecast(c, r, ['seq1m-q8t1-write'], regime, capBps);
  });
  const keep = read(g, 'luks-keep-before.txt');
  c.that(keep !== '' && read(g, 'luks-keep-after.txt') === keep, "the LUKS2 volume's other file unchanged by the write run");
  c.that(!/\.diskdelta-/.test(read(g, 'luks-dir-after.txt')), "the write run's test file removed");
}

interface AuditJson {
  fstrim: { seconds: number; bytes: number | null } | { skipped: string };
  audit: {
    layers: Array<{ kind: string; name: string; discards: number | null; allowDiscards: boolean | null; discardMaxBytes: number | null }>;
    deepestReached: string | null;
    refusedBy: string | null;
    mismatches: string[];
  };
}

/**
 * The disk-bound boot's QEMU throttle, bytes/s: far below the emulated cipher (~30–140 MB/s).
 * 6 MiB/s, not 3: the boot writes about 150 MiB (file systems, test files), and at 3 MiB/s that
 * alone took most of a minute of CI's time.
 */
const DISK_CAP_BPS = 6 * 1024 * 1024;

function vdbSectorsWritten(text: string): number {
  return Number(text.trim().split(/\s+/)[6]);
}

describe('dm-crypt lab', { skip: reason ?? false }, () => {
  test('cipher-bound: ciphers vs cryptsetup, throwaway + SIGKILL cleanup, LUKS2 read-only, forecasts', { timeout: 3_000_000 }, async () => {
    const k = kernel!;
    const g = await runInGuest(k, {
      secondDisk: true,
      diskBytes: 512 * 1024 * 1024,
      timeoutMs: 2_900_000,
      script: `DD='${DD}'; W=${WORKER}
${AGAIN_IF_NODE_DIED}
${setup(k)}
kept() { $W ciphers --cipher aes-xts-plain64:$1 --sector 65536 --threads 1 --duration 1 | grep '"cipher"' >> dd-$1.ndjson; }
rekeyed() { $W ciphers --cipher aes-xts-plain64:$1 --sector 65536 --threads 1 --duration 1 --rekey 1048576 | grep '"cipher"' >> ddr-$1.ndjson; }
for k in 256 512; do
  for r in $(seq ${CIPHER_ROUNDS}); do
    cryptsetup benchmark -c aes-xts -s $k | tail -1 >> cs-$k.txt
    if [ $((r % 2)) = 1 ]; then kept $k; rekeyed $k; else rekeyed $k; kept $k; fi
    cryptsetup benchmark -c aes-xts -s $k | tail -1 >> cs-$k.txt
  done
done
${runs('seq1m-q8t1-read,seq1m-q8t1-write', '--size 64MiB --duration 3 --warmup 0.5')}
sums > sums-after-throwaway.txt
# The run to kill, started once more only if its Node dies of the known cause before its mapping
# is being measured, like again_if_node_died; any other early end is left for the checks to report.
measuring=
for attempt in 1 2; do
  kmsg_from=$(dmesg | wc -l)
  $DD encryption --target /run/a/target --mode throwaway --tests seq1m-q8t1-read --size 64MiB --duration 60 --no-save > killed.out 2>&1 &
  P=$!
  while kill -0 $P 2> /dev/null; do
    dmsetup ls | grep -q diskdelta-crypt && pgrep -f 'diskdelta-worker run' > /dev/null && { measuring=1; break; }
    sleep 0.2
  done
  [ -n "$measuring" ] && break
  wait $P; rc=$?
  [ $rc -gt 128 ] && [ $rc -lt 160 ] || break
  name_node_death $rc killed.out $kmsg_from "attempt $attempt of the run to be SIGKILLed, before its mapping was measured" || break
  [ $attempt = 1 ] && echo "  run once more" >> node-deaths.txt
done
sleep 1
# SIGKILL the process that owns the mapping (its pid is in the name): the one that must leave it
# behind, whichever process started it.
OWNER=$(dmsetup ls | sed -n 's/^diskdelta-crypt-\\([0-9]*\\)-.*/\\1/p' | head -1)
kill -9 $OWNER; sleep 3
dmsetup ls > leftover-dm.txt; losetup -a > leftover-loop.txt; ls -a /run/a/target > leftover-files.txt
again_if_node_died $DD encryption --target /run/a/target --mode throwaway --tests seq1m-q8t1-read --size 32MiB --duration 0.5 --warmup 0 --no-save > next.out 2> next.err; echo $? > next.rc
dmsetup ls > after-dm.txt; losetup -a > after-loop.txt; ls -a /run/a/target > after-files.txt
sums > sums-after.txt
${forecastRoundsScript()}
sums > sums-after-rounds.txt; md5sum /run/l/keep.bin > luks-keep-after-rounds.txt; ls -A /run/a/target /run/l/dir > rounds-after.txt
`,
    });
    guests.push(g);
    const c = checksOf(g);
    // 1. AF_ALG ciphers vs cryptsetup benchmark, in ABBA rounds (cryptsetup, ours, ours,
    //    cryptsetup) so drift of the emulation's speed cancels: the median of the rounds' ratios,
    //    the worker on cryptsetup's method (a new transform per MiB: cryptsetup-rounds.ts) judged,
    //    its own figure (keyed once, as dm-crypt) printed with what re-keying costs.
    for (const bits of [256, 512]) {
      c.attempt(`ciphers vs cryptsetup, aes-xts ${bits}`, () => {
        const lines = (name: string) => read(g, name).trim().split('\n').filter(Boolean);
        for (const dir of cipherRounds(lines(`cs-${bits}.txt`), lines(`dd-${bits}.ndjson`), lines(`ddr-${bits}.ndjson`))) {
          const j = judgeRounds(dir.rekeyed, CIPHER_TOLERANCE);
          const line = `aes-xts ${bits} ${dir.dir}: diskdelta on cryptsetup's method (a new transform per MiB) / cryptsetup ${j.text} (medians: diskdelta ${mb(dir.workerRekeyed)} MB/s, cryptsetup ${mb(dir.cryptsetup)} MB/s, its report less the pass it counts twice)`;
          c.figures.push(
            line,
            `aes-xts ${bits} ${dir.dir}: diskdelta's own figure (one transform, keyed once as dm-crypt keys its mapping) ${mb(dir.workerKept)} MB/s, per round ${dir.kept.map((r) => r.toFixed(2)).join(' ')}× cryptsetup's; one transform kept read ${median(dir.rekeyCost).toFixed(2)}× one made per MiB here (per round ${dir.rekeyCost.map((r) => r.toFixed(2)).join(' ')}): what cryptsetup's method costs, not a fault of either figure, and not judged`,
          );
          c.judge(line, j.verdict, `${line}: off by ${((j.ratio - 1) * 100).toFixed(1)} %`);
        }
      });
    }

    // 2. The throwaway mapping, cipher-bound, and the existing LUKS2 volume.
    c.attempt('throwaway, cipher-bound', () => {
      const throwaway = report(g, 'throwaway');
      assert.equal(throwaway.ceilings.source, 'kernel');
      checkForecast(c, throwaway, ['seq1m-q8t1-read', 'seq1m-q8t1-write'], 'cipher');
    });
    c.attempt('existing LUKS2, cipher-bound', () => {
      const luks = report(g, 'luks');
      assert.equal(luks.mode, 'existing');
      assert.match(luks.encrypted.target.path, /^\/dev\/dm-/);
      assert.equal(luks.raw.target.path, '/dev/vdb');
      assert.deepEqual(
        luks.raw.results.map((x) => x.test),
        ['seq1m-q8t1-read'],
        'an existing mapping is only read',
      );
      checkForecast(c, luks, ['seq1m-q8t1-read'], 'cipher');
    });
    checkExistingWrite(c, g, 'cipher');
    c.that(
      vdbSectorsWritten(read(g, 'vdb-after.txt')) === vdbSectorsWritten(read(g, 'vdb-before.txt')),
      'nothing written to the LUKS2 disk',
    );

    // 3. SIGKILL mid-run: the leftovers exist, the next run removes them and says so.
    c.attempt('SIGKILL, then the next run cleans up', () => {
      assert.match(
        read(g, 'leftover-dm.txt'),
        /diskdelta-crypt-\d+-/,
        `the killed run left its mapping; it printed:\n${read(g, 'killed.out').slice(-1500)}`,
      );
      assert.match(read(g, 'leftover-loop.txt'), /\.diskdelta-crypt-\d+-[0-9a-f]+\.img/, 'and its loop device');
      assert.equal(read(g, 'next.rc').trim(), '0', read(g, 'next.err'));
      const next = read(g, 'next.out');
      assert.match(next, /Cleaned up: removed the dm-crypt mapping diskdelta-crypt-\d+-[0-9a-f]+ left by a killed run/);
      assert.match(next, /Cleaned up: detached the loop device \/dev\/loop\d+ left by a killed run/);
      assert.doesNotMatch(read(g, 'after-dm.txt'), /diskdelta-crypt/);
      assert.doesNotMatch(read(g, 'after-loop.txt'), /diskdelta-crypt/);
      assert.doesNotMatch(read(g, 'after-files.txt'), /\.diskdelta-/);
      assert.match(read(g, 'after-dm.txt'), /labluks/, "the user's own mapping is untouched");
      c.figures.push(
        `after SIGKILL the next run said:\n${next
          .split('\n')
          .filter((l) => l.startsWith('Cleaned up'))
          .join('\n')}`,
      );
    });

    // 4. Nothing else on the guest's filesystem changed.
    const before = read(g, 'sums-before.txt');
    c.that(/bystander\.bin/.test(before), 'the bystander files were summed');
    c.that(read(g, 'sums-after-throwaway.txt') === before, "files outside DiskDelta's own unchanged after the throwaway run");
    c.that(read(g, 'sums-after.txt') === before, "files outside DiskDelta's own unchanged after the SIGKILL and the cleanup");

    // 5. The forecast model judged in alternating rounds; the rounds' test files gone, nothing else touched.
    checkForecastRounds(c, g);
    c.that(read(g, 'sums-after-rounds.txt') === before, "files outside DiskDelta's own unchanged by the rounds");
    c.that(
      read(g, 'luks-keep-after-rounds.txt') === read(g, 'luks-keep-before.txt'),
      "the LUKS2 volume's other file unchanged by the rounds",
    );
    c.that(!/\.diskdelta-/.test(read(g, 'rounds-after.txt')), `the rounds' test files removed: ${read(g, 'rounds-after.txt')}`);
    c.done();
  });

  test('disk-bound: QEMU throttles both disks far below the cipher; throwaway and LUKS2, forecasts', { timeout: 3_000_000 }, async () => {
    const k = kernel!;
    const g = await runInGuest(k, {
      secondDisk: true,
      diskBytes: 256 * 1024 * 1024,
      throttleBps: DISK_CAP_BPS,
      timeoutMs: 2_900_000,
      script: `DD='${DD}'\n${AGAIN_IF_NODE_DIED}\n${setup(k)}\n${runs('seq1m-q8t1-read,seq1m-q8t1-write', '--size 32MiB --duration 4 --warmup 0.5')}\nsums > sums-after.txt`,
    });
    guests.push(g);
    const c = checksOf(g);
    c.attempt('throwaway, disk-bound', () =>
      checkForecast(c, report(g, 'throwaway'), ['seq1m-q8t1-read', 'seq1m-q8t1-write'], 'disk', DISK_CAP_BPS),
    );
    c.attempt('existing LUKS2, disk-bound', () => checkForecast(c, report(g, 'luks'), ['seq1m-q8t1-read'], 'disk', DISK_CAP_BPS));
    checkExistingWrite(c, g, 'disk', DISK_CAP_BPS);
    c.that(
      vdbSectorsWritten(read(g, 'vdb-after.txt')) === vdbSectorsWritten(read(g, 'vdb-before.txt')),
      'nothing written to the LUKS2 disk',
    );
    c.that(read(g, 'sums-after.txt') === read(g, 'sums-before.txt'), "files outside DiskDelta's own unchanged");
    c.done();
  });

  test(
    'TRIM through LUKS2: without --allow-discards the audit stops at dm-crypt, with it the counters reach the virtio disk',
    { timeout: 1_200_000 },
    async () => {
      const k = kernel!;
      const audit = (name: string) =>
        `again_if_node_died $DD trim-audit /run/l/dir --json --no-save > trim-${name}.json 2> trim-${name}.err; echo $? > trim-${name}.rc; dmsetup table labluks > table-${name}.txt`;
      const g = await runInGuest(k, {
        discard: true,
        diskBytes: 256 * 1024 * 1024,
        timeoutMs: 1_100_000,
        script: `DD='${DD}'
${AGAIN_IF_NODE_DIED}
${labModprobe(k)}
printf 'lab-passphrase' > /tmp/pass
cryptsetup luksFormat --type luks2 --batch-mode --pbkdf pbkdf2 --pbkdf-force-iterations 1000 --key-file /tmp/pass /dev/vda
cryptsetup open --key-file /tmp/pass /dev/vda labluks
mkfs.ext4 -q -F -b 4096 -E lazy_itable_init=0,lazy_journal_init=0,nodiscard /dev/mapper/labluks
mkdir -p /run/l && mount -o noatime /dev/mapper/labluks /run/l && mkdir -p /run/l/dir
${audit('off')}
umount /run/l && cryptsetup close labluks
cryptsetup open --allow-discards --key-file /tmp/pass /dev/vda labluks && mount -o noatime /dev/mapper/labluks /run/l
${audit('on')}
cat /sys/block/vda/queue/discard_max_bytes > vda-discard-max.txt
`,
      });
      guests.push(g);
      const c = checksOf(g);
      const result = (name: 'off' | 'on') => {
        assert.equal(read(g, `trim-${name}.rc`).trim(), '0', `trim-audit (${name}): ${read(g, `trim-${name}.err`)}`);
        return JSON.parse(read(g, `trim-${name}.json`)) as AuditJson;
      };
      const layer = (r: AuditJson, kind: string) => r.audit.layers.find((l) => l.kind === kind);
      const countersLine = (r: AuditJson) =>
        `${JSON.stringify(r.audit.layers.map((l) => [l.kind, l.name, l.discards]))}; fstrim ${JSON.stringify(r.fstrim)}`;
      c.that(Number(read(g, 'vda-discard-max.txt')) > 0, 'the virtio disk takes discards (discard=unmap)');
      c.attempt('without --allow-discards', () => {
        const off = result('off');
        assert.doesNotMatch(read(g, 'table-off.txt'), /allow_discards/, 'dmsetup table without the flag');
        c.figures.push(`without allow_discards: ${countersLine(off)}`);
        assert.equal(layer(off, 'dm-crypt')?.allowDiscards, false);
        assert.equal(layer(off, 'dm-crypt')?.discards, 0, 'dm-crypt counted no discard');
        assert.equal(layer(off, 'disk')?.discards, 0, 'the disk counted no discard');
        assert.equal(off.audit.deepestReached, null);
        assert.match(off.audit.refusedBy ?? '', /^dm-crypt labluks/);
        assert.deepEqual(off.audit.mismatches, []);
      });
      c.attempt('with --allow-discards', () => {
        const on = result('on');
        assert.match(read(g, 'table-on.txt'), /allow_discards/, 'dmsetup table with the flag');
        c.figures.push(`with allow_discards: ${countersLine(on)}`);
        assert.equal(layer(on, 'dm-crypt')?.allowDiscards, true);
        assert.ok((layer(on, 'dm-crypt')?.discards ?? 0) > 0, 'dm-crypt counted discards');
        assert.ok((layer(on, 'disk')?.discards ?? 0) > 0, 'the virtio disk counted discards');
        assert.equal(on.audit.deepestReached, 'disk vda');
        assert.equal(on.audit.refusedBy, null);
        assert.deepEqual(on.audit.mismatches, []);
        assert.ok('bytes' in on.fstrim && (on.fstrim.bytes ?? 0) > 0, 'fstrim trimmed');
      });
      c.done();
    },
  );
  // Without root: the real pkexec and polkitd, started in the guest (the polkit lab does the same
  // on the host, which has no device-mapper), with DiskDelta's policy and a rule that allows
  // nobody; the host's copies are read-only, so each goes on a tmpfs laid over its folder.
  test(
    'as nobody through pkexec: the helper makes a read-only throwaway mapping, reads measured, nothing left; a SIGKILLed holder leaves no mapping',
    { skip: polkitMissing() ?? false, timeout: 1_500_000 },
    async () => {
      const k = kernel!;
      const g = await runInGuest(k, {
        secondDisk: true,
        diskBytes: 256 * 1024 * 1024,
        timeoutMs: 1_400_000,
        script: `DD='${DD}'
WORKER=${WORKER}
HELPER=${HELPER}
${AGAIN_IF_NODE_DIED}
${labModprobe(k)}
mkfs.ext4 -q -F -b 4096 -E lazy_itable_init=0,lazy_journal_init=0 /dev/vda
mkdir -p /run/a && mount -o noatime /dev/vda /run/a && mkdir -p /run/a/target && chown 65534:65534 /run/a/target
mkdir -p /run/pk && cp /usr/share/polkit-1/actions/* /run/pk/ && mount -t tmpfs actions /usr/share/polkit-1/actions && cp /run/pk/* /usr/share/polkit-1/actions/
sed "s|@HELPER@|$HELPER|g" ${POLICY_IN} > /usr/share/polkit-1/actions/org.diskdelta.helper.policy
mount -t tmpfs rules /etc/polkit-1/rules.d
echo 'polkit.addRule(function(action, subject) { if (action.id.indexOf("org.diskdelta.helper.") == 0 && subject.user == "nobody") return polkit.Result.YES; });' > /etc/polkit-1/rules.d/49-diskdelta-lab.rules
mkdir -p /run/dbus && dbus-daemon --system --fork > dbus.txt 2>&1
/usr/lib/polkit-1/polkitd --no-debug > polkitd.txt 2>&1 &
asnobody() { setpriv --reuid=65534 --regid=65534 --clear-groups env -i PATH=/usr/bin:/bin HOME=/run/a/target DISKDELTA_HELPER=$HELPER "$@"; }
# polkitd is up and has read the rule once pkexec runs a verb for nobody (drop-caches opens nothing).
for i in $(seq 180); do asnobody pkexec $HELPER drop-caches > probe.txt 2>&1 && break; sleep 1; done
echo "$i" > probe-seconds.txt
# While the run lasts: the helper's mapping as device-mapper sees it.
( while [ ! -e held.rc ]; do dmsetup info 2>/dev/null | grep -A2 'diskdelta-u65534-' >> during-info.txt; dmsetup table 2>/dev/null | grep 'diskdelta-u65534-' >> during-table.txt; sleep 1; done ) &
again_if_node_died asnobody $DD encryption --target /run/a/target --mode throwaway --elevate --tests seq1m-q8t1-read,seq1m-q8t1-write,rnd4k-q1t1-read --size 32MiB --duration 2 --warmup 0.5 --json --no-save > held.json 2> held.err; echo $? > held.rc
sleep 2
dmsetup ls > after-dm.txt 2>&1; losetup -a > after-loop.txt; ls -A /run/a/target > after-files.txt
# A holder killed with SIGKILL: the kernel removes what it held.
asnobody $WORKER prepare --target /run/a/target --size 8388608 > prepared.txt
FILE=$(grep '"type":"prepared"' prepared.txt | grep -o '"file":"[^"]*"' | cut -d'"' -f4)
sleep 3600 | asnobody $WORKER crypt-hold --target "$FILE" --helper $HELPER --crypt "aes-xts-plain64 512 512 none" --socket /run/a/target/k.sock > kill-hold.out 2> kill-hold.err &
for i in $(seq 300); do grep -q '"holding"' kill-hold.out && break; sleep 1; done
dmsetup ls > before-kill-dm.txt 2>&1
pkill -KILL -f 'diskdelta-worker crypt-hold'
for i in $(seq 30); do dmsetup ls | grep -q diskdelta-u65534- || break; sleep 1; done
dmsetup ls > after-kill-dm.txt 2>&1; losetup -a > after-kill-loop.txt
pkill -f 'sleep 3600'; kill %1 2>/dev/null
# An existing LUKS2 volume, as nobody: the mapping and the disk beneath opened by the helper (open-ro).
printf 'lab-passphrase' > /tmp/pass
cryptsetup luksFormat --type luks2 --batch-mode --pbkdf pbkdf2 --pbkdf-force-iterations 1000 --key-file /tmp/pass /dev/vdb
cryptsetup open --key-file /tmp/pass /dev/vdb labluks
mkfs.ext4 -q -F -b 4096 -E lazy_itable_init=0,lazy_journal_init=0 /dev/mapper/labluks
mkdir -p /run/l && mount -o noatime /dev/mapper/labluks /run/l && mkdir -p /run/l/dir && chown 65534:65534 /run/l/dir
sync; cat /sys/block/vdb/stat > vdb-before.txt
again_if_node_died asnobody $DD encryption --target /run/l/dir --mode existing --elevate --tests seq1m-q8t1-read --size 32MiB --duration 2 --warmup 0.5 --json --no-save > held-luks.json 2> held-luks.err; echo $? > held-luks.rc
cat /sys/block/vdb/stat > vdb-after.txt
`,
      });
      guests.push(g);
      const c = checksOf(g);
      c.figures.push(`polkitd answered after ${read(g, 'probe-seconds.txt').trim()} s`);
      c.attempt('the encryption run as nobody', () => {
        assert.equal(read(g, 'held.rc').trim(), '0', `exit status; stderr:\n${read(g, 'held.err')}\nprobe: ${read(g, 'probe.txt')}`);
        const r = JSON.parse(read(g, 'held.json')) as EncryptionReport;
        assert.equal(r.mode, 'throwaway');
        const reads = ['seq1m-q8t1-read', 'rnd4k-q1t1-read'];
        assert.deepEqual(
          r.raw.results.map((x) => x.test),
          reads,
          'the raw (loop) run: the read tests',
        );
        assert.deepEqual(
          r.encrypted.results.map((x) => x.test),
          reads,
          'the mapping: the read tests',
        );
        for (const run of [r.raw, r.encrypted])
          for (const x of run.results) assert.ok((x.bytesPerSec ?? 0) > 0, `${run.label} ${x.test} measured`);
        assert.match(r.encrypted.label ?? '', /read-only \(made by the helper\)/);
        assert.ok(
          r.notes.some((n) => /seq1m-q8t1-write left out: without root the throwaway mapping is made read-only/.test(n)),
          r.notes.join('\n'),
        );
        for (const v of r.verdict)
          c.figures.push(
            `nobody's throwaway ${v.test}: raw ${(v.rawBytesPerSec / 1e6).toFixed(2)} MB/s, dm-crypt ${(v.encryptedBytesPerSec / 1e6).toFixed(2)}, cipher ${((v.cipherBytesPerSec ?? 0) / 1e6).toFixed(2)} (${v.ceiling})`,
          );
      });
      c.that(
        /READ-ONLY/.test(read(g, 'during-info.txt')),
        `device-mapper called the helper's mapping read-only: ${read(g, 'during-info.txt').slice(0, 400)}`,
      );
      c.that(
        / crypt aes-xts-plain64 /.test(read(g, 'during-table.txt')),
        `a plain aes-xts-plain64 crypt table: ${read(g, 'during-table.txt').slice(0, 300)}`,
      );
      c.that(!/[0-9a-f]{64}/.test(read(g, 'held.json') + read(g, 'held.err')), 'no key in anything the run said');
      c.that(!/diskdelta-u65534-/.test(read(g, 'after-dm.txt')), `no mapping left: ${read(g, 'after-dm.txt')}`);
      c.that(!/\.diskdelta-/.test(read(g, 'after-loop.txt')), `no loop device left: ${read(g, 'after-loop.txt')}`);
      c.that(!/\.diskdelta-/.test(read(g, 'after-files.txt')), `no test file left: ${read(g, 'after-files.txt')}`);
      c.that(
        /diskdelta-u65534-/.test(read(g, 'before-kill-dm.txt')),
        `the holder held a mapping before the SIGKILL: ${read(g, 'before-kill-dm.txt')} ${read(g, 'kill-hold.err')}`,
      );
      c.that(
        !/diskdelta-u65534-/.test(read(g, 'after-kill-dm.txt')),
        `after the SIGKILL the kernel removed the mapping: ${read(g, 'after-kill-dm.txt')}`,
      );
      c.that(!/\.diskdelta-/.test(read(g, 'after-kill-loop.txt')), `and the loop: ${read(g, 'after-kill-loop.txt')}`);
      c.attempt('an existing LUKS2 volume as nobody', () => {
        assert.equal(read(g, 'held-luks.rc').trim(), '0', `exit status; stderr:\n${read(g, 'held-luks.err')}`);
        const r = JSON.parse(read(g, 'held-luks.json')) as EncryptionReport;
        assert.equal(r.mode, 'existing');
        for (const run of [r.raw, r.encrypted]) {
          assert.deepEqual(
            run.results.map((x) => x.test),
            ['seq1m-q8t1-read'],
          );
          assert.ok((run.results[0]!.bytesPerSec ?? 0) > 0, `${run.label}: measured`);
        }
        assert.match(r.raw.label ?? '', /raw \/dev\/vdb/, 'the disk beneath, read');
        for (const v of r.verdict)
          c.figures.push(
            `nobody's existing LUKS2 ${v.test}: raw ${(v.rawBytesPerSec / 1e6).toFixed(2)} MB/s, dm-crypt ${(v.encryptedBytesPerSec / 1e6).toFixed(2)} (${v.ceiling})`,
          );
      });
      c.that(
        vdbSectorsWritten(read(g, 'vdb-after.txt')) === vdbSectorsWritten(read(g, 'vdb-before.txt')),
        'nothing written to the LUKS2 disk by the run as nobody',
      );
      c.done();
    },
  );
});
