// The access recorder (worker verb `record`) on a real filesystem: ext4 on a loop device with
// planted files of known sizes. A scripted hour of accesses (one step per scripted minute, time
// compressed: each step waits only for its record) is played against the recorder, which is
// stopped with SIGTERM halfway and resumed on the same trace; the trace must hold exactly the
// scripted touches (files, kinds, sizes), the same file must hash alike across the two sessions,
// and the LRU cache curve from it must equal a plain LRU list simulated over the script.
//
// As the user (nobody) the one privileged step goes through the real helper, started by a
// setuid stand-in for pkexec (polkit's authorisation is e2e/polkit-lab.test.ts's): the helper
// keeps the fanotify group and passes back only (hash, bytes, time, kinds) records of files
// nobody may look up, so of a root-only file nothing reaches nobody: not its name, not its
// writer's pid, not a touch (issue 38 item 2; the verb is also attacked directly, by a program
// of nobody's that dumps every byte it gets). As root the worker makes a descriptors group
// itself. Needs root, losetup, mkfs.ext4 and a C compiler; skips with the reason elsewhere.
import { spawn, spawnSync } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { curveSizes, parseTrace, traceCurve } from '../../electron/shared/analysis/access-trace.ts';
import { scratchExt4, scratchUnavailable } from '../../electron/node/bench/trim/fixtures/scratch-ext4.ts';
import { parseStdout, WORKER, type Outcome } from './worker-harness.ts';
import { reachableCopy } from '../../scripts/other-user.ts';
import type { WorkerMessage } from '../../electron/node/bench/worker-protocol.ts';

const NATIVE = fileURLToPath(new URL('..', import.meta.url));
const HELPER = process.env.DISKDELTA_HELPER ?? join(NATIVE, 'build', 'diskdelta-helper');
const NOBODY = 65534;
const KiB = 1024;
/** fanotify's event bits (linux/fanotify.h). */
const FAN_ACCESS = 0x1;
const FAN_MODIFY = 0x2;
/** The helper's verb that records for a user who is not root. */
const RECORD_VERB = 'record-accesses';
/** One record the verb passes back (native/src/access-feed.h): hash u64, bytes i64, t_ms i64, kinds u32, u32. */
const RECORD_BYTES = 32;

/** The records after the verb's ready line (none when it sent something else). */
function feedRecords(received: Buffer): Array<{ hash: bigint; bytes: number; tMs: number; kinds: number }> {
  const start = received.indexOf(0x0a) + 1;
  if (start === 0 || !received.subarray(0, start).toString('latin1').startsWith('{"records"')) return [];
  const out = [];
  for (let at = start; at + RECORD_BYTES <= received.length; at += RECORD_BYTES)
    out.push({
      hash: received.readBigUInt64LE(at),
      bytes: Number(received.readBigInt64LE(at + 8)),
      tMs: Number(received.readBigInt64LE(at + 16)),
      kinds: received.readUInt32LE(at + 24),
    });
  return out;
}

const unavailable = scratchUnavailable ?? (spawnSync('cc', ['--version']).status !== 0 ? 'needs a C compiler (cc)' : null);

/** The planted files: name → bytes (whole 4 KiB blocks, so ext4 allocates exactly this). */
const FILES: Record<string, number> = {
  hot: 8 * KiB,
  warm: 12 * KiB,
  big: 64 * KiB,
  cold1: 4 * KiB,
  cold2: 20 * KiB,
  cold3: 16 * KiB,
  doc: 24 * KiB,
};

type Step = { file: string; op: 'r' | 'w' };
/** A read played right after the root-only file's, so the recorder has something to wait for. */
const MARKER: Step = { file: 'hot', op: 'r' };

/**
 * A scripted hour, one step a minute: `hot` read every other minute, `warm` every fifth, `doc`
 * written every tenth, `big` read twice, the cold files once each.
 */
function scriptedHour(): Step[] {
  const steps: Step[] = [];
  for (let minute = 0; minute < 60; minute++) {
    if (minute === 7 || minute === 41) steps.push({ file: 'big', op: 'r' });
    else if (minute === 13) steps.push({ file: 'cold1', op: 'r' });
    else if (minute === 29) steps.push({ file: 'cold2', op: 'r' });
    else if (minute === 53) steps.push({ file: 'cold3', op: 'r' });
    else if (minute % 10 === 3) steps.push({ file: 'doc', op: 'w' });
    else if (minute % 5 === 0) steps.push({ file: 'warm', op: 'r' });
    else if (minute % 2 === 0) steps.push({ file: 'hot', op: 'r' });
  }
  return steps;
}

/** A plain LRU list of whole files, bytes and touches served per cache size: the curve computed by hand. */
function lruByHand(steps: readonly Step[], sizes: readonly number[]): Array<{ cacheBytes: number; hitRatio: number; hitTouches: number }> {
  const total = steps.reduce((n, s) => n + FILES[s.file]!, 0);
  return sizes.map((cacheBytes) => {
    let list: string[] = [];
    let served = 0;
    let hitTouches = 0;
    for (const { file } of steps) {
      if (list.includes(file)) {
        served += FILES[file]!;
        hitTouches++;
      }
      list = [file, ...list.filter((f) => f !== file)];
      while (list.reduce((n, f) => n + FILES[f]!, 0) > cacheBytes) list.pop();
    }
    return { cacheBytes, hitRatio: served / total, hitTouches };
  });
}

function play(step: Step, data: string): void {
  const path = join(data, step.file);
  if (step.op === 'r') {
    readFileSync(path);
    return;
  }
  // One write of the same length in place: one modify event, the size unchanged.
  const fd = openSync(path, 'r+');
  writeSync(fd, Buffer.alloc(4096, 7), 0, 4096, 0);
  closeSync(fd);
}

/** Touches in the trace: records that read or wrote, in order. */
function touches(trace: string): Array<{ f: string; s: number | null; k: string }> {
  if (!existsSync(trace)) return [];
  // Whole lines only: polled while the recorder appends, the last line can be half written
  // (a fresh-clone CI parsed one: "Unterminated string in JSON at position 31").
  const text = readFileSync(trace, 'utf8');
  return text
    .slice(0, text.lastIndexOf('\n') + 1)
    .split('\n')
    .filter((l) => l.startsWith('{"t":'))
    .map((l) => JSON.parse(l) as { f: string; s: number | null; k: string })
    .filter((r) => /[rw]/.test(r.k));
}

async function untilTouches(trace: string, count: number): Promise<void> {
  // Not a timing assertion: each step waits for its own record (a cap only against a hang).
  for (let i = 0; i < 2000 && touches(trace).length < count; i++) await new Promise((r) => setTimeout(r, 10));
  assert.ok(touches(trace).length >= count, `the recorder wrote ${touches(trace).length} of ${count} touches`);
}

type After = { after: (fn: () => void) => void };

/** A recorder that a failed assertion does not leave running (it would keep the test alive). */
function startRecorder(t: After, args: string[], as: { uid?: number; gid?: number; env?: NodeJS.ProcessEnv } = {}) {
  // Another user runs a staged copy when the checkout's folder is closed to it (scripts/other-user.ts).
  const worker =
    as.uid !== undefined && as.uid !== process.getuid?.() ? reachableCopy(WORKER, { uid: as.uid, gid: as.gid ?? as.uid }) : WORKER;
  const child = spawn(worker, ['record', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    uid: as.uid,
    gid: as.gid,
    env: as.env ?? process.env,
  });
  t.after(() => void (child.exitCode === null && child.signalCode === null && child.kill('SIGKILL')));
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
  child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
  const exited = new Promise<Outcome>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal, messages: parseStdout(stdout), stdout, stderr })),
  );
  const started = async (): Promise<Extract<WorkerMessage, { type: 'record-start' }>> => {
    for (let i = 0; i < 2000 && !stdout.includes('"record-start"') && child.exitCode === null; i++)
      await new Promise((r) => setTimeout(r, 10));
    const m = parseStdout(stdout).find((x) => x.type === 'record-start');
    assert.ok(m && m.type === 'record-start', `the recorder started: ${stdout} ${stderr}`);
    return m;
  };
  return { child, exited, started };
}

/** A setuid-root stand-in for pkexec: PKEXEC_UID set to the caller, a clean environment, then the helper. */
function standInPkexec(t: After): string | null {
  const bin = mkdtempSync(join(tmpdir(), 'dd-pkexec-'));
  t.after(() => rmSync(bin, { recursive: true, force: true }));
  chmodSync(bin, 0o711);
  const source = join(bin, 'pkexec.c');
  writeFileSync(
    source,
    `#define _GNU_SOURCE
#include <stdio.h>
#include <unistd.h>
int main(int argc, char **argv) {
  char uid[32];
  snprintf(uid, sizeof uid, "PKEXEC_UID=%u", (unsigned)getuid());
  if (argc < 2 || setresgid(0, 0, 0) || setresuid(0, 0, 0)) return 127;
  char *env[] = {uid, "PATH=/usr/sbin:/usr/bin:/sbin:/bin", NULL};
  execve(argv[1], argv + 1, env);
  return 127;
}
`,
  );
  const built = spawnSync('cc', ['-o', join(bin, 'pkexec'), source], { encoding: 'utf8' });
  assert.equal(built.status, 0, built.stderr);
  chmodSync(join(bin, 'pkexec'), 0o4755);
  const options = spawnSync('findmnt', ['-no', 'OPTIONS', '-T', bin], { encoding: 'utf8' }).stdout;
  return /\bnosuid\b/.test(options) ? null : bin;
}

/** The init flags of the fanotify group a process holds (/proc/PID/fdinfo), or null. */
function groupFlags(pid: number): number | null {
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    let link: string;
    try {
      link = readlinkSync(`/proc/${pid}/fd/${fd}`);
    } catch {
      continue; // closed meanwhile
    }
    if (link !== 'anon_inode:[fanotify]') continue;
    const m = /fanotify flags:([0-9a-f]+)/.exec(readFileSync(`/proc/${pid}/fdinfo/${fd}`, 'utf8'));
    if (m) return parseInt(m[1]!, 16);
  }
  return null;
}

/**
 * What a process of `nobody` gets from the helper's recording verb, byte for byte: it starts the
 * verb through the stand-in pkexec with a socket as its stdout (as the worker does), sends a key,
 * and dumps to its stdout every byte that arrives on the socket and every byte it can read from
 * any descriptor passed over it, until its stdin closes. It knows no protocol: it is the
 * attacker's view of the verb, not the recorder's.
 */
function buildCapture(bin: string): string {
  const source = join(bin, 'capture.c');
  writeFileSync(
    source,
    `#define _GNU_SOURCE
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>
static void dump(const char *b, ssize_t n) { if (n > 0) fwrite(b, 1, (size_t)n, stdout); }
int main(int argc, char **argv) {
  int sv[2], held[16], nheld = 0;
  setvbuf(stdout, NULL, _IONBF, 0);
  if (argc < 4 || socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv)) return 2;
  pid_t pid = fork();
  if (pid == 0) {
    dup2(sv[1], 1);
    execv(argv[1], argv + 1);
    _exit(127);
  }
  close(sv[1]);
  unsigned char key[16];
  memset(key, 0x5a, sizeof key);
  if (write(sv[0], key, sizeof key) != sizeof key) return 3;
  static char buf[1 << 16];
  int said_ready = 0, sock_open = 1;
  for (;;) {
    struct pollfd p[18];
    int n = 0;
    p[n++] = (struct pollfd){.fd = 0, .events = POLLIN};
    p[n++] = (struct pollfd){.fd = sock_open ? sv[0] : -1, .events = POLLIN};
    for (int i = 0; i < nheld; i++) p[n++] = (struct pollfd){.fd = held[i], .events = POLLIN};
    if (poll(p, (nfds_t)n, 200) < 0) continue;
    if (p[0].revents) { ssize_t r = read(0, buf, sizeof buf); if (r <= 0) break; }
    if (p[1].revents) {
      union { char b[CMSG_SPACE(sizeof(int) * 4)]; struct cmsghdr a; } c;
      struct iovec iov = {.iov_base = buf, .iov_len = sizeof buf};
      struct msghdr m = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = c.b, .msg_controllen = sizeof c.b};
      ssize_t r = recvmsg(sv[0], &m, 0);
      if (r <= 0) sock_open = 0;
      dump(buf, r);
      for (struct cmsghdr *h = CMSG_FIRSTHDR(&m); h; h = CMSG_NXTHDR(&m, h))
        if (h->cmsg_type == SCM_RIGHTS)
          for (size_t i = 0; i < (h->cmsg_len - CMSG_LEN(0)) / sizeof(int) && nheld < 16; i++)
            memcpy(&held[nheld++], CMSG_DATA(h) + i * sizeof(int), sizeof(int));
      if (!said_ready) { fprintf(stderr, "ready\\n"); said_ready = 1; }
    }
    for (int i = 0; i < nheld; i++)
      if (p[2 + i].revents) dump(buf, read(held[i], buf, sizeof buf));
  }
  fflush(stdout);
  close(sv[0]);
  for (int i = 0; i < nheld; i++) close(held[i]);
  waitpid(pid, NULL, 0);
  return 0;
}
`,
  );
  const out = join(bin, 'capture');
  const built = spawnSync('cc', ['-o', out, source], { encoding: 'utf8' });
  assert.equal(built.status, 0, built.stderr);
  chmodSync(out, 0o755);
  return out;
}

function plant(t: After) {
  const disk = scratchExt4(t, 64 * 2 ** 20);
  disk.mount('defaults');
  const data = join(disk.mountpoint, 'data');
  mkdirSync(data);
  for (const [name, bytes] of Object.entries(FILES)) writeFileSync(join(data, name), Buffer.alloc(bytes, 1));
  const closed = join(disk.mountpoint, 'private');
  mkdirSync(closed, { mode: 0o700 });
  writeFileSync(join(closed, 'secret'), Buffer.alloc(4096, 2), { mode: 0o600 });
  spawnSync('sync');
  for (const [name, bytes] of Object.entries(FILES))
    assert.equal(statSync(join(data, name)).blocks * 512, bytes, `ext4 allocates ${name} exactly`);
  const traces = mkdtempSync(join(tmpdir(), 'dd-traces-'));
  chownSync(traces, NOBODY, NOBODY);
  t.after(() => rmSync(traces, { recursive: true, force: true }));
  return { mountpoint: disk.mountpoint, data, secret: join(closed, 'secret'), trace: join(traces, 'trace.ndjson') };
}

describe('the access recorder', { skip: unavailable ?? false }, () => {
  it('as nobody through the helper: a scripted hour, stopped with SIGTERM and resumed, recorded exactly (nothing of a root-only file); the curve as by hand', async (t) => {
    const { mountpoint, data, secret, trace } = plant(t);
    const bin = standInPkexec(t);
    if (!bin) return t.skip('the temporary folder is mounted nosuid: the stand-in pkexec cannot be setuid');
    const as = { uid: NOBODY, gid: NOBODY, env: { PATH: `${bin}:/usr/bin:/bin` } };
    const args = ['--target', mountpoint, '--helper', HELPER, '--trace', trace, '--merge-ms', '0'];
    const script = scriptedHour();
    const half = Math.floor(script.length / 2);

    const first = startRecorder(t, args, as);
    const begun = await first.started();
    assert.equal(begun.group, 'helper');
    assert.equal(begun.resumed, false);
    assert.equal(groupFlags(first.child.pid!), null, 'nobody holds no fanotify group: the helper keeps it');
    for (const [i, step] of script.slice(0, half).entries()) {
      play(step, data);
      await untilTouches(trace, i + 1);
    }
    // A root-only file, then hot: only hot's touch is recorded, nothing at all of a file nobody may not look up.
    readFileSync(secret);
    play(MARKER, data);
    await untilTouches(trace, half + 1);
    first.child.kill('SIGTERM');
    const stopped = await first.exited;
    assert.equal(stopped.code, 0, stopped.stderr);
    const result = stopped.messages.find((m) => m.type === 'record-result');
    assert.ok(result && result.type === 'record-result' && result.why === 'signal');
    assert.equal(result.unsized, 0);

    const second = startRecorder(t, args, as);
    assert.equal((await second.started()).resumed, true);
    for (const [i, step] of script.slice(half).entries()) {
      play(step, data);
      await untilTouches(trace, half + 2 + i);
    }
    // The last three touches happen while the recorder is held (SIGSTOP), and SIGTERM comes
    // before it runs again: they are still in the kernel's queue at the stop, which must record them.
    const burst: Step[] = [
      { file: 'cold1', op: 'r' },
      { file: 'cold2', op: 'r' },
      { file: 'doc', op: 'w' },
    ];
    second.child.kill('SIGSTOP');
    for (const step of burst) play(step, data);
    second.child.kill('SIGTERM');
    second.child.kill('SIGCONT');
    assert.equal((await second.exited).code, 0);

    const all = touches(trace);
    const played = [...script.slice(0, half), MARKER, ...script.slice(half), ...burst];
    assert.equal(all.length, played.length, 'one touch per scripted access, none of the root-only file, none lost at the stop');
    const hashOf = new Map<string, string>();
    all.forEach((touch, i) => {
      const step = played[i];
      assert.ok(step !== undefined);
      assert.equal(touch.k.replace('o', ''), step.op, `touch ${i} is a ${step.op} of ${step.file}`);
      assert.equal(touch.s, FILES[step.file], `touch ${i}: ${step.file}'s allocated bytes`);
      const known = hashOf.get(step.file);
      if (known) assert.equal(touch.f, known, `${step.file} hashes alike in both sessions`);
      else hashOf.set(step.file, touch.f);
    });
    assert.equal(new Set(hashOf.values()).size, Object.keys(FILES).length, 'each file its own hash');
    assert.ok(!readFileSync(trace, 'utf8').includes('data/'), 'no path in the trace');

    const summary = parseTrace(readFileSync(trace, 'utf8'));
    assert.ok(!('reason' in summary));
    assert.equal(summary.sessions, 2);
    assert.equal(summary.ended, 2);
    assert.equal(summary.unsized, 0);
    const steps = played;
    const distinct = Object.values(FILES).reduce((n, b) => n + b, 0);
    const curve = traceCurve(summary);
    assert.equal(curve.distinctBytes, distinct);
    assert.equal(curve.accesses, steps.length);
    assert.deepEqual(curve.points, lruByHand(steps, curveSizes(distinct)));
    assert.equal(statSync(trace).mode & 0o777, 0o600);
  });

  it("as nobody, the helper's verb itself: of a file in root's 0700 folder no byte of its name and no writer's pid arrive; a file nobody may see arrives as hash and size", async (t) => {
    const { mountpoint, data } = plant(t);
    const bin = standInPkexec(t);
    if (!bin) return t.skip('the temporary folder is mounted nosuid: the stand-in pkexec cannot be setuid');
    const capture = buildCapture(bin);
    const child = spawn(capture, [join(bin, 'pkexec'), HELPER, RECORD_VERB, mountpoint], {
      uid: NOBODY,
      gid: NOBODY,
      stdio: ['pipe', 'pipe', 'pipe'],
      env: { PATH: '/usr/bin:/bin' },
    });
    t.after(() => void (child.exitCode === null && child.signalCode === null && child.kill('SIGKILL')));
    const chunks: Buffer[] = [];
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => chunks.push(c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    const closed = new Promise<void>((resolve) => child.on('close', () => resolve()));
    for (let i = 0; i < 2000 && !stderr.includes('ready') && child.exitCode === null; i++) await new Promise((r) => setTimeout(r, 10));
    assert.ok(stderr.includes('ready'), `the helper answered nobody: ${stderr}`);

    // Root makes, writes and reads a file with a telling name in a folder only root may enter.
    const hidden = join(mountpoint, 'root-only');
    mkdirSync(hidden, { mode: 0o700 });
    const secretName = 'salary-2026.xlsx';
    const writer = spawnSync('sh', ['-c', 'printf confidential > "$1" && cat "$1" > /dev/null', 'sh', join(hidden, secretName)]);
    assert.equal(writer.status, 0);
    // A file nobody may look up (data/ is open to all): the recorder's own material.
    play({ file: 'hot', op: 'r' }, data);
    const received = () => Buffer.concat(chunks);
    const hotRecord = () => feedRecords(received()).find((r) => r.bytes === FILES.hot && (r.kinds & FAN_ACCESS) !== 0);
    // Not a timing assertion: a cap far above the milliseconds the record takes, against a hang.
    for (let i = 0; i < 500 && !hotRecord(); i++) await new Promise((r) => setTimeout(r, 10));
    const arrivedWhileRecording = hotRecord() !== undefined;
    child.stdin.end();
    await closed;

    const all = received();
    for (const piece of [secretName, 'salary', 'root-only'])
      assert.equal(all.indexOf(piece), -1, `"${piece}" reached nobody (${all.length} bytes received)`);
    const pid = Buffer.alloc(4);
    pid.writeInt32LE(writer.pid!);
    assert.equal(all.indexOf(pid), -1, `the writer's pid ${writer.pid} reached nobody`);
    assert.equal(all.indexOf(String(writer.pid)), -1, `the writer's pid ${writer.pid} reached nobody as text`);
    // What it may receive: one ready line, then (hash, size, time, kinds) records, and of files
    // nobody may see nothing at all (root-only's file is 4 KiB on this ext4: no record of that size).
    const records = feedRecords(all);
    assert.ok(arrivedWhileRecording, "hot's read arrived while the recording ran");
    assert.ok(
      hotRecord(),
      `hot's read arrived as a record with its allocated bytes: ${records.map((r) => `${r.bytes}:${r.kinds}`).join(' ')}`,
    );
    assert.equal(records.filter((r) => r.bytes === 4096 && (r.kinds & FAN_MODIFY) !== 0).length, 0, 'no record of the hidden file');
  });

  it('as root: a descriptors group of its own, the same touches and sizes', async (t) => {
    const { mountpoint, data, trace } = plant(t);
    const rec = startRecorder(t, ['--target', mountpoint, '--trace', trace, '--merge-ms', '0']);
    assert.equal((await rec.started()).group, 'descriptors');
    const script = scriptedHour().slice(0, 12);
    for (const [i, step] of script.entries()) {
      play(step, data);
      await untilTouches(trace, i + 1);
    }
    rec.child.kill('SIGTERM');
    assert.equal((await rec.exited).code, 0);
    const all = touches(trace);
    assert.deepEqual(
      all.map((x) => [x.k.replace('o', ''), x.s]),
      script.map((s) => [s.op, FILES[s.file]]),
    );
  });

  it('the merge window: a file read over and over within it is one touch', async (t) => {
    const { mountpoint, data, trace } = plant(t);
    const rec = startRecorder(t, ['--target', mountpoint, '--trace', trace, '--merge-ms', '3600000']);
    await rec.started();
    play({ file: 'hot', op: 'r' }, data);
    await untilTouches(trace, 1);
    // The second read of hot is queued after the first was read (so the kernel cannot merge
    // them); warm's record appears only once the recorder has read past it.
    play({ file: 'hot', op: 'r' }, data);
    play({ file: 'warm', op: 'r' }, data);
    await untilTouches(trace, 2);
    rec.child.kill('SIGTERM');
    const out = await rec.exited;
    assert.equal(touches(trace).length, 2, 'one touch of each file');
    const result = out.messages.find((m) => m.type === 'record-result');
    assert.ok(result && result.type === 'record-result' && result.merged > 0, 'the rest were merged, and counted as such');
  });

  it('refuses a folder with no disk under it (/proc, /sys, /dev, /dev/shm): says so, exit 3, no trace left', async (t) => {
    const traces = mkdtempSync(join(tmpdir(), 'dd-traces-'));
    t.after(() => rmSync(traces, { recursive: true, force: true }));
    for (const [folder, fs] of [
      ['/proc', 'proc'],
      ['/sys', 'sysfs'],
      ['/dev', 'tmpfs'],
      ['/dev/shm', 'tmpfs'],
    ] as const) {
      if (!existsSync(folder)) continue;
      const trace = join(traces, `${fs}.ndjson`);
      const out = await startRecorder(t, ['--target', folder, '--trace', trace, '--seconds', '1']).exited;
      assert.equal(out.code, 3, `${folder}: ${out.stdout}`);
      const error = out.messages.find((m) => m.type === 'error');
      assert.ok(error && error.type === 'error' && error.code === 'target-virtual-fs', `${folder}: ${out.stdout}`);
      assert.match(
        error.message,
        new RegExp(`^${folder} is on ${fs}, .*there is no disk under it for a cache to serve\\. Record a folder on the disk`),
      );
      assert.equal(existsSync(trace), false, `${folder}: no trace was made`);
    }
  });

  it('a --trace that is a symbolic link: refused with what to give instead, the file it points to untouched', async (t) => {
    const { mountpoint, trace } = plant(t);
    const real = `${trace}.real`;
    writeFileSync(real, 'not a trace\n');
    const link = `${trace}.link`;
    symlinkSync(real, link);
    const out = await startRecorder(t, ['--target', mountpoint, '--trace', link, '--seconds', '1']).exited;
    assert.equal(out.code, 2, out.stdout);
    const error = out.messages.find((m) => m.type === 'error');
    assert.ok(error && error.type === 'error' && error.code === 'usage', out.stdout);
    assert.equal(
      error.message,
      `the trace ${link} is a symbolic link (to ${real}): a trace is never written through a link. Give the path of the trace itself to --trace (the link's target, if that is the trace you mean)`,
    );
    assert.equal(readFileSync(real, 'utf8'), 'not a trace\n');
  });

  it('refusals: nobody without the helper, another filesystem’s trace, a second recorder on one trace; nothing recorded', async (t) => {
    const { mountpoint, trace } = plant(t);
    const alone = startRecorder(t, ['--target', mountpoint, '--trace', trace], { uid: NOBODY, gid: NOBODY });
    const refused = await alone.exited;
    assert.equal(refused.code, 3);
    const error = refused.messages.find((m) => m.type === 'error');
    assert.ok(error && error.type === 'error' && error.code === 'needs-elevation', refused.stdout);
    assert.match(error.message, /needs DiskDelta's polkit helper \(it makes only the group\) or root/);
    assert.equal(existsSync(trace), false, 'no trace was left behind');

    const rec = startRecorder(t, ['--target', mountpoint, '--trace', trace]);
    await rec.started();
    const twice = await startRecorder(t, ['--target', mountpoint, '--trace', trace]).exited;
    assert.equal(twice.code, 2);
    assert.match(twice.stdout, /another recorder is writing the trace/);
    rec.child.kill('SIGTERM');
    assert.equal((await rec.exited).code, 0);

    const other = await startRecorder(t, ['--target', tmpdir(), '--trace', trace]).exited;
    assert.equal(other.code, 2);
    assert.match(other.stdout, /records another filesystem/);
  });
});
