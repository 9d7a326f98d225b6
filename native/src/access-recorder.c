// The access recorder (access-recorder.h): reads a fanotify group marking one whole filesystem
// and appends, per touch of a file, one line to the trace: when (ms), a keyed hash of the file's
// identity, its allocated bytes, and what was done (o: opened, r: read, w: modified). Nothing
// else of the file is kept: no path, no name, no owner, no pid.
//
// Trace lines (NDJSON, appended; a stop and a resume add a session to the same file):
//   {"v":1,"type":"trace","fsid":…,"fs":…,"key":…,"created_ms":…}   once, first
//   {"type":"session","t":…,"merge_ms":…,"group":…}               each start (group: descriptors, or helper)
//   {"t":…,"f":"<16 hex>","s":BYTES,"k":"or"}                     a touch
//   {"t":…,"f":"<16 hex>","s":BYTES,"k":"s"}                      the file's last touch, seen later at this size
//   {"type":"lost","t":…}                                         the kernel's queue overflowed (how many is not said)
//   {"type":"end","t":…,"why":"signal"|"time-limit",…}            each clean stop
// The hash is SipHash-2-4 of the filesystem's id and the file's handle (which carries the inode's
// generation, so a reused inode number is another file) under a random key made with the trace
// and kept in its first line (file-identity.h): the same file hashes alike across sessions,
// whether root's worker or the helper hashed it, and without the key (and the filesystem) a hash names nothing. The trace is 0600.
//
// The bytes: fstat of the event's descriptor (a descriptors group: root's own recording). For a
// user who is not root the helper holds the group and passes only (hash, bytes, time, kinds)
// records of the files the user may look up (access-feed.h): the recorder never sees a name, a
// pid or a descriptor of anyone's file, and a file in a folder closed to the user not at all.
#include "access-recorder.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/fanotify.h>
#include <sys/file.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <time.h>
#include <unistd.h>

#include "elevate.h"
#include "access-feed.h"
#include "fanotify-group.h"
#include "file-identity.h"
#include "fs-kinds.h"
#include "ndjson.h"
#include "target.h"
#include "util.h"

extern volatile sig_atomic_t g_stop;

#define EVENT_BUF (64 * 1024)
#define PROGRESS_NS 1000000000ull
#define SYNC_NS (60 * 1000000000ull)

// ---- files seen this session: the merge window per kind of touch ----
enum { KIND_OPEN, KIND_READ, KIND_WRITE, KINDS };
static const char KIND_LETTER[KINDS] = {'o', 'r', 'w'};

typedef struct {
  uint64_t hash;  // 0: empty slot (a real hash of 0 is stored as 1)
  int64_t last_ms[KINDS];
  // The file's bytes in its last line in the trace, and at the last event seen of it (-1: not
  // known). They differ when a file grew (or shrank) under touches merged into that line: a
  // file written in a thousand write()s is one touch, but its size is the last write's, not
  // the first's (issue 40 item 1: ten 10 MiB files were kept at 450,560 bytes each).
  int64_t written_bytes, seen_bytes;
} seen_t;

typedef struct {
  seen_t *slots;
  size_t cap, used;
} seen_table_t;

static seen_t *seen_find(seen_table_t *t, uint64_t hash) {
  if (t->used * 2 >= t->cap) {
    size_t cap = t->cap ? t->cap * 2 : 4096;
    seen_t *slots = calloc(cap, sizeof *slots);
    if (!slots) return NULL;
    for (size_t i = 0; i < t->cap; i++) {
      if (!t->slots[i].hash) continue;
      size_t j = t->slots[i].hash & (cap - 1);
      while (slots[j].hash) j = (j + 1) & (cap - 1);
      slots[j] = t->slots[i];
    }
    free(t->slots);
    t->slots = slots;
    t->cap = cap;
  }
  size_t j = hash & (t->cap - 1);
  while (t->slots[j].hash && t->slots[j].hash != hash) j = (j + 1) & (t->cap - 1);
  if (!t->slots[j].hash) {
    t->slots[j].hash = hash;
    for (int k = 0; k < KINDS; k++) t->slots[j].last_ms[k] = INT64_MIN / 2;
    t->slots[j].written_bytes = t->slots[j].seen_bytes = -1;
    t->used++;
  }
  return &t->slots[j];
}

// ---- the recording ----
typedef struct {
  int fan, trace;
  dev_t trace_dev;
  ino_t trace_ino;
  uint8_t key[16];
  uint8_t fsid[8];
  unsigned merge_ms;
  int via_helper;        // r->fan is the helper's feed of records (access-feed.h), not a group
  helper_feed_t feed;
  uint64_t trace_hash;   // the trace's own identity: its writes come back in the helper's feed
  char feed_buf[sizeof(access_feed_record_t) * 256];
  size_t feed_len;
  int feed_ended;        // the helper closed the feed
  seen_table_t seen;
  uint64_t events, records, unopenable, unsized, lost, merged, other;
  char *out;  // lines of one batch, written to the trace in one write()
  size_t out_len, out_cap;
} recorder_t;

static int64_t wall_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void out_line(recorder_t *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void out_line(recorder_t *r, const char *fmt, ...) {
  if (r->out_cap - r->out_len < 512) {
    size_t cap = r->out_cap ? r->out_cap * 2 : 65536;
    char *grown = realloc(r->out, cap);
    if (!grown) return;
    r->out = grown;
    r->out_cap = cap;
  }
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(r->out + r->out_len, r->out_cap - r->out_len, fmt, ap);
  va_end(ap);
  if (n > 0 && (size_t)n < r->out_cap - r->out_len) r->out_len += (size_t)n;
}

// One write() per batch (O_APPEND): a line is never half in the trace unless the disk is full.
static int out_flush(recorder_t *r) {
  size_t off = 0;
  while (off < r->out_len) {
    ssize_t n = write(r->trace, r->out + off, r->out_len - off);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return -1;
    off += (size_t)n;
  }
  r->out_len = 0;
  return 0;
}

// One touch of a file: kept unless merged with the same kind of touch within the merge window.
static void record_touch(recorder_t *r, uint64_t hash, int64_t bytes, uint64_t mask, int64_t now) {
  seen_t *seen = seen_find(&r->seen, hash);
  char kinds[KINDS + 1];
  int n = 0;
  const uint64_t masks[KINDS] = {FAN_OPEN, FAN_ACCESS, FAN_MODIFY};
  for (int k = 0; k < KINDS; k++) {
    if (!(mask & masks[k])) continue;
    // The merge window: a file read in a thousand read()s within it is one touch.
    if (seen && r->merge_ms && now - seen->last_ms[k] < (int64_t)r->merge_ms) continue;
    if (seen) seen->last_ms[k] = now;
    kinds[n++] = KIND_LETTER[k];
  }
  kinds[n] = 0;
  if (seen && bytes >= 0) seen->seen_bytes = bytes;
  if (!n) {
    r->merged++;
    return;
  }
  if (seen) seen->written_bytes = bytes;
  r->records++;
  char size[24] = "null";
  if (bytes >= 0) snprintf(size, sizeof size, "%lld", (long long)bytes);
  else if (strpbrk(kinds, "rw")) r->unsized++;  // a touch the curve cannot count (an open alone is none)
  out_line(r, "{\"t\":%lld,\"f\":\"%016llx\",\"s\":%s,\"k\":\"%s\"}\n", (long long)now, (unsigned long long)hash, size, kinds);
}

// The sizes seen since each file's last line, where they differ from it: one "s" line per such
// file, `{"t":…,"f":…,"s":BYTES,"k":"s"}`, which amends that line (the same touch, seen later at
// this size; no new access). Written every minute and at the stop, so a killed session loses at
// most a minute's growth.
static void record_sizes(recorder_t *r, int64_t now) {
  for (size_t i = 0; i < r->seen.cap; i++) {
    seen_t *s = &r->seen.slots[i];
    if (!s->hash || s->written_bytes < 0 || s->seen_bytes < 0 || s->seen_bytes == s->written_bytes) continue;
    out_line(r, "{\"t\":%lld,\"f\":\"%016llx\",\"s\":%lld,\"k\":\"s\"}\n", (long long)now, (unsigned long long)s->hash,
             (long long)s->seen_bytes);
    s->written_bytes = s->seen_bytes;
  }
}

static void record_lost(recorder_t *r, int64_t now) {
  r->lost++;
  out_line(r, "{\"type\":\"lost\",\"t\":%lld}\n", (long long)now);
}

// An event of root's own descriptors group.
static void take_event(recorder_t *r, const struct fanotify_event_metadata *m, int64_t now) {
  r->events++;
  if (m->mask & FAN_Q_OVERFLOW) {
    record_lost(r, now);
    return;
  }
  if (m->fd < 0) {  // FAN_REPORT_FD_ERROR: the kernel could not open the file
    r->unopenable++;
    return;
  }
  struct stat st;
  // Not the trace's own writes (this process), nor anything but a regular file.
  int ok = m->pid != getpid() && fstat(m->fd, &st) == 0 && S_ISREG(st.st_mode) && !(st.st_dev == r->trace_dev && st.st_ino == r->trace_ino);
  if (ok) record_touch(r, file_identity(r->key, r->fsid, m->fd, &st), (int64_t)st.st_blocks * 512, m->mask, now);
  else if (m->pid != getpid()) r->other++;
  close(m->fd);
}

// A record of the helper's feed (already reduced to files the user may look up).
static void take_record(recorder_t *r, const access_feed_record_t *rec) {
  r->events++;
  if (rec->kinds & FAN_Q_OVERFLOW) record_lost(r, rec->t_ms);
  else if (rec->hash == r->trace_hash || !rec->hash) r->other++;
  else record_touch(r, rec->hash, rec->bytes, rec->kinds, rec->t_ms);
}

// Reads the helper's records until it has sent nothing more for now (the feed is non-blocking),
// or its end (r->feed_ended). Returns 0, or -1 when the trace cannot be written.
static int drain_feed(recorder_t *r) {
  for (;;) {
    ssize_t n = read(r->fan, r->feed_buf + r->feed_len, sizeof r->feed_buf - r->feed_len);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && errno == EAGAIN) break;
    if (n <= 0) {
      r->feed_ended = 1;
      break;
    }
    r->feed_len += (size_t)n;
    size_t whole = r->feed_len - r->feed_len % sizeof(access_feed_record_t);
    for (size_t off = 0; off < whole; off += sizeof(access_feed_record_t)) {
      access_feed_record_t rec;
      memcpy(&rec, r->feed_buf + off, sizeof rec);
      take_record(r, &rec);
    }
    memmove(r->feed_buf, r->feed_buf + whole, r->feed_len - whole);
    r->feed_len -= whole;
    if (out_flush(r) != 0) return -1;
  }
  return out_flush(r);
}

// Reads what the kernel has queued, until it has nothing more (the group is non-blocking).
// Returns 0, or -1 when the trace cannot be written.
static int drain(recorder_t *r) {
  if (r->via_helper) return drain_feed(r);
  static char buf[EVENT_BUF] __attribute__((aligned(__alignof__(struct fanotify_event_metadata))));
  for (;;) {
    ssize_t len = read(r->fan, buf, sizeof buf);
    if (len < 0 && errno == EINTR) continue;
    if (len < 0 && errno == EAGAIN) break;
    if (len < 0) {
      // Before Linux 6.13 a file the reader may not open fails the read, and that event is gone.
      if (errno == EACCES || errno == EPERM || errno == EROFS || errno == ETXTBSY || errno == ENXIO || errno == ENOENT) {
        r->events++;
        r->unopenable++;
        continue;
      }
      break;
    }
    if (len == 0) break;
    int64_t now = wall_ms();
    const struct fanotify_event_metadata *m = (const void *)buf;
    while (FAN_EVENT_OK(m, len)) {
      if (m->vers == FANOTIFY_METADATA_VERSION) take_event(r, m, now);
      else if (m->fd >= 0) close(m->fd);
      m = FAN_EVENT_NEXT(m, len);
    }
    if (out_flush(r) != 0) return -1;
  }
  return out_flush(r);
}

static void emit_counts(jbuf_t *b, const recorder_t *r, double seconds) {
  jb_dbl(b, "seconds", seconds);
  jb_u64(b, "events", r->events);
  jb_u64(b, "records", r->records);
  jb_u64(b, "files", r->seen.used);
  jb_u64(b, "merged", r->merged);
  jb_u64(b, "unopenable", r->unopenable);
  jb_u64(b, "unsized", r->unsized);
  jb_u64(b, "lost", r->lost);
}

static int hexval(char c) { return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1; }

// An existing trace: its key and filesystem from the first line. Returns 0, or -1 (why filled).
static int read_header(int fd, uint8_t key[16], char *fsid, size_t fsidlen, char *why, size_t whylen) {
  char line[1024];
  ssize_t n = pread(fd, line, sizeof line - 1, 0);
  if (n <= 0) return snprintf(why, whylen, "it cannot be read back"), -1;
  line[n] = 0;
  char *end = strchr(line, '\n');
  if (end) *end = 0;
  const char *k = strstr(line, "\"key\":\""), *f = strstr(line, "\"fsid\":\"");
  if (!strstr(line, "\"type\":\"trace\"") || !k || !f) return snprintf(why, whylen, "its first line is not a DiskDelta trace's"), -1;
  k += strlen("\"key\":\"");
  for (int i = 0; i < 16; i++) {
    int hi = hexval(k[2 * i]), lo = hi < 0 ? -1 : hexval(k[2 * i + 1]);
    if (lo < 0) return snprintf(why, whylen, "its key is damaged"), -1;
    key[i] = (uint8_t)(hi << 4 | lo);
  }
  f += strlen("\"fsid\":\"");
  snprintf(fsid, fsidlen, "%.*s", (int)strcspn(f, "\""), f);
  return 0;
}

// Opens (or creates) the trace, locked against a second recorder. Returns 0 or an exit code.
static int open_trace(recorder_t *r, const char *path, const char *fsid, const char *fs, int *resumed) {
  // Never through a link at the trace's own name: a link planted there would have root's
  // recording append to (and lock) the file it points to.
  r->trace = open(path, O_RDWR | O_CREAT | O_APPEND | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (r->trace < 0 && errno == ELOOP) {
    char to[PATH_MAX];
    ssize_t n = readlink(path, to, sizeof to - 1);
    if (n > 0) to[n] = 0;
    return emit_failure(FAIL_USAGE, "the trace %s is a symbolic link%s%s%s: a trace is never written through a link. Give the path of the "
                        "trace itself to --trace%s", path, n > 0 ? " (to " : "", n > 0 ? to : "", n > 0 ? ")" : "",
                        n > 0 ? " (the link's target, if that is the trace you mean)" : "");
  }
  if (r->trace < 0)
    return emit_failure(errno == ENOENT ? FAIL_TARGET_MISSING : FAIL_PERMISSION, "cannot open the trace %s: %s", path, strerror(errno));
  if (flock(r->trace, LOCK_EX | LOCK_NB) != 0)
    return emit_failure(FAIL_USAGE, "another recorder is writing the trace %s: stop it first, or give another --trace", path);
  struct stat st;
  if (fstat(r->trace, &st) != 0 || !S_ISREG(st.st_mode))
    return emit_failure(FAIL_USAGE, "the trace %s is not a regular file: give a file's path", path);
  r->trace_dev = st.st_dev;
  r->trace_ino = st.st_ino;
  *resumed = st.st_size > 0;
  if (*resumed) {
    char had[64], why[128];
    if (read_header(r->trace, r->key, had, sizeof had, why, sizeof why) != 0)
      return emit_failure(FAIL_USAGE, "%s is not a trace DiskDelta can resume: %s. Give a new file to --trace", path, why);
    if (strcmp(had, fsid) != 0)
      return emit_failure(FAIL_USAGE, "the trace %s records another filesystem (fsid %s, this one is %s): give a new --trace for this one",
                          path, had, fsid);
    // A line cut by a full disk or a crash is closed, so the resumed session starts whole.
    char last = '\n';
    if (pread(r->trace, &last, 1, st.st_size - 1) == 1 && last != '\n') out_line(r, "\n");
    return 0;
  }
  if (getrandom(r->key, sizeof r->key, 0) != (ssize_t)sizeof r->key) return emit_failure(FAIL_INTERNAL, "no random key: %s", strerror(errno));
  char hex[33];
  for (int i = 0; i < 16; i++) snprintf(hex + 2 * i, 3, "%02x", r->key[i]);
  out_line(r, "{\"v\":1,\"type\":\"trace\",\"fsid\":\"%s\",\"fs\":\"%s\",\"key\":\"%s\",\"created_ms\":%lld}\n", fsid, fs, hex,
           (long long)wall_ms());
  return 0;
}

// The fanotify flags of an inherited group (/proc/self/fdinfo), or -1 when it is not one.
static long group_flags(unsigned fd) {
  char path[48], line[256];
  snprintf(path, sizeof path, "/proc/self/fdinfo/%u", fd);
  FILE *f = fopen(path, "re");
  long flags = -1;
  while (f && fgets(line, sizeof line, f))
    if (sscanf(line, "fanotify flags:%lx", &flags) == 1) break;
  if (f) fclose(f);
  return flags;
}

// Where the events come from: an inherited group, the helper's records, or this process's own
// group as root. Returns the descriptor to poll, or minus an exit code after an error line.
static int open_group(recorder_t *r, const record_opts_t *o, int dir, int *fd_error) {
  char why[512];
  *fd_error = -1;  // not known
  if (o->fd) {
    long flags = group_flags(o->fd);
    if (flags < 0) return -emit_failure(FAIL_BAD_FD, "descriptor %u is not a fanotify group: give a group made by root's fanotify_init", o->fd);
    if (flags & FAN_REPORT_FID)
      return -emit_failure(FAIL_BAD_FD, "descriptor %u is a fanotify group that reports file handles, not descriptors: the recorder sizes "
                           "files through the events' descriptors; as a user who is not root, record through DiskDelta's helper", o->fd);
    fcntl((int)o->fd, F_SETFD, FD_CLOEXEC);
    int fl = fcntl((int)o->fd, F_GETFL);
    if (fl >= 0) fcntl((int)o->fd, F_SETFL, fl | O_NONBLOCK);
    return (int)o->fd;
  }
  if (o->helper) {
    int rc = elevate_start_records(o->helper, o->target, r->key, &r->feed);
    if (rc) return -rc;
    r->via_helper = 1;
    struct stat st;
    if (fstat(r->trace, &st) == 0) r->trace_hash = file_identity(r->key, r->fsid, r->trace, &st);
    return r->feed.sock;
  }
  int fd = fanotify_group_open(dir, fd_error, why, sizeof why);
  if (fd >= 0) return fd;
  if (errno == EPERM)
    return -emit_failure(FAIL_NEEDS_ELEVATION, "%s; the recorder needs DiskDelta's polkit helper (it makes only the group) or root", why);
  return -emit_failure(FAIL_TARGET_UNUSABLE, "%s", why);
}

// The end of a recording through the helper: the worker shuts down its side, the helper passes
// on what the kernel still held and closes the feed. Bounded: a helper that does not finish
// within 10 s loses what it had not sent (said). Returns 0, or -1 when the trace cannot be written.
static int end_feed(recorder_t *r, const char **lag) {
  shutdown(r->fan, SHUT_WR);
  uint64_t deadline = now_ns() + 10 * 1000000000ull;
  while (!r->feed_ended && now_ns() < deadline) {
    struct pollfd p = {.fd = r->fan, .events = POLLIN};
    if (poll(&p, 1, 200) < 0 && errno != EINTR) break;
    if (drain_feed(r) != 0) return -1;
  }
  if (!r->feed_ended) *lag = "the helper did not pass on within 10 s what the kernel still held at the stop: that is not recorded";
  return 0;
}

int access_record(const record_opts_t *o) {
  recorder_t r = {.fan = -1, .trace = -1, .merge_ms = o->merge_ms};
  int dir = open(o->target, O_PATH | O_DIRECTORY | O_CLOEXEC);
  if (dir < 0)
    return emit_end(emit_failure(errno == ENOENT ? FAIL_TARGET_MISSING : errno == ENOTDIR ? FAIL_TARGET_NOT_FOLDER : FAIL_PERMISSION,
                                 "cannot open %s: %s: give a folder on the filesystem to record", o->target, strerror(errno)),
                    0, "");
  struct statfs sfs;
  if (fstatfs(dir, &sfs) != 0) {
    close(dir);
    return emit_end(emit_failure(FAIL_TARGET_UNUSABLE, "cannot read the filesystem of %s: %s", o->target, strerror(errno)), 0, "");
  }
  // No disk under it, so no cache to size: and a recording there sees nothing (the kernel makes
  // up /proc's and /sys's files without opening any), which would read as "nothing was used".
  const char *virtual_fs = virtual_fs_name((long)sfs.f_type), *ram_fs = ram_fs_name((long)sfs.f_type);
  if (virtual_fs || ram_fs) {
    close(dir);
    return emit_end(emit_failure(FAIL_TARGET_VIRTUAL_FS,
                                 "%s is on %s, %s: there is no disk under it for a cache to serve. Record a folder on the disk "
                                 "whose files you use (for example your home folder)",
                                 o->target, virtual_fs ? virtual_fs : ram_fs,
                                 virtual_fs ? "a virtual filesystem the kernel makes up" : "which keeps its files in memory"),
                    0, "");
  }
  char fsid[40];
  int fsid_words[2];
  memcpy(fsid_words, &sfs.f_fsid, sizeof fsid_words);
  memcpy(r.fsid, &sfs.f_fsid, sizeof r.fsid);
  snprintf(fsid, sizeof fsid, "%08x%08x", (unsigned)fsid_words[0], (unsigned)fsid_words[1]);
  const char *fs = fs_name((long)sfs.f_type);

  // The trace first: a trace that cannot be resumed is said before anyone is asked for a password.
  int resumed = 0;
  int rc = open_trace(&r, o->trace, fsid, fs, &resumed);
  int fd_error = 0;
  if (!rc) {
    int got = open_group(&r, o, dir, &fd_error);
    if (got < 0) rc = -got;
    else r.fan = got;
  }
  close(dir);
  if (rc) {
    r.out_len = 0;  // a new trace's header is not written: nothing was recorded
    if (r.trace >= 0) {
      struct stat st;
      if (!resumed && fstat(r.trace, &st) == 0 && st.st_size == 0) unlink(o->trace);
      close(r.trace);
    }
    free(r.out);
    return emit_end(rc, 0, "");
  }
  const char *source = r.via_helper ? "helper" : "descriptors";
  int64_t started = wall_ms();
  out_line(&r, "{\"type\":\"session\",\"t\":%lld,\"merge_ms\":%u,\"group\":\"%s\"}\n", (long long)started, r.merge_ms, source);
  out_flush(&r);

  jbuf_t b;
  jb_begin(&b, "hello");
  jb_str(&b, "worker", WORKER_NAME);
  jb_str(&b, "version", WORKER_VERSION);
  jb_i64(&b, "pid", getpid());
  jb_str(&b, "engine", "fanotify");
  jb_str(&b, "target", o->target);
  jb_str(&b, "kind", "folder");
  jb_str(&b, "fs", fs);
  jb_str(&b, "file", NULL);
  jb_u64(&b, "size", 0);
  jb_bool(&b, "direct", 0);
  jb_u64(&b, "jobs", 0);
  jb_end_emit(&b);
  jb_begin(&b, "record-start");
  jb_str(&b, "trace", o->trace);
  jb_str(&b, "fsid", fsid);
  jb_bool(&b, "resumed", resumed);
  jb_i64(&b, "started_ms", started);
  jb_str(&b, "group", source);
  if (fd_error >= 0) jb_bool(&b, "fd_error", fd_error);
  jb_end_emit(&b);

  uint64_t t0 = now_ns(), last_progress = t0, last_sync = t0;
  uint64_t limit = o->seconds > 0 ? (uint64_t)(o->seconds * 1e9) : 0;
  const char *why = "signal";
  int failed = 0;
  while (!g_stop && !r.feed_ended) {
    uint64_t now = now_ns();
    if (limit && now - t0 >= limit) {
      why = "time-limit";
      break;
    }
    uint64_t wait_ms = 500;
    if (limit && (limit - (now - t0)) / 1000000 < wait_ms) wait_ms = (limit - (now - t0)) / 1000000 + 1;
    struct pollfd p = {.fd = r.fan, .events = POLLIN};
    int n = poll(&p, 1, (int)wait_ms);
    if (n < 0 && errno != EINTR) break;
    if (n > 0 && drain(&r) != 0) {
      failed = errno ? errno : EIO;
      break;
    }
    now = now_ns();
    if (now - last_progress >= PROGRESS_NS) {
      last_progress = now;
      jb_begin(&b, "record-progress");
      emit_counts(&b, &r, (double)(now - t0) / 1e9);
      jb_end_emit(&b);
    }
    if (now - last_sync >= SYNC_NS) {
      last_sync = now;
      record_sizes(&r, wall_ms());
      if (out_flush(&r) != 0) {
        failed = errno ? errno : EIO;
        break;
      }
      fdatasync(r.trace);
    }
  }
  // The helper ended the feed by itself (killed, or it failed): not a clean end of the session.
  int helper_quit = r.feed_ended;
  // What the kernel queued before the stop is still recorded: nothing seen is lost.
  const char *lag = NULL;
  if (!failed && (r.via_helper ? (helper_quit ? 0 : end_feed(&r, &lag)) : drain(&r)) != 0) failed = errno ? errno : EIO;
  char helper_why[512] = "";
  int helper_failed = r.via_helper && elevate_end_records(&r.feed, helper_why, sizeof helper_why) != 0;
  double seconds = (double)(now_ns() - t0) / 1e9;
  if (!failed) record_sizes(&r, wall_ms());  // a helper that quit still leaves the sizes seen
  if (!failed && !helper_quit) {
    out_line(&r, "{\"type\":\"end\",\"t\":%lld,\"why\":\"%s\",\"events\":%llu,\"records\":%llu,\"unopenable\":%llu,\"lost\":%llu}\n",
             (long long)wall_ms(), why, (unsigned long long)r.events, (unsigned long long)r.records,
             (unsigned long long)r.unopenable, (unsigned long long)r.lost);
  }
  if (!failed && out_flush(&r) != 0) failed = errno ? errno : EIO;
  fdatasync(r.trace);
  if (!r.via_helper) close(r.fan);  // the helper's feed: closed by elevate_end_records
  close(r.trace);
  free(r.out);
  free(r.seen.slots);
  if (failed)
    return emit_end(emit_failure(failed == ENOSPC ? FAIL_NO_SPACE : FAIL_IO_ERROR, "writing the trace %s failed: %s; what was written before stays",
                                 o->trace, strerror(failed)),
                    0, "");
  if (helper_quit)
    return emit_end(emit_failure(FAIL_HELPER_FAILED, "the recording stopped: the privileged helper ended it (%s); what was recorded before "
                                 "stays in %s, and recording again resumes it",
                                 helper_failed ? helper_why : "it closed its side", o->trace),
                    0, "");
  if (helper_failed) emit_warning("record-helper", "%s", helper_why);
  if (lag) emit_warning("record-lost", "%s", lag);
  if (r.lost)
    emit_warning("record-lost", "the kernel's event queue overflowed %llu time(s): some accesses were not recorded (a busy machine; the curve under-counts them)",
                 (unsigned long long)r.lost);
  if (r.unopenable)
    emit_warning("record-unopenable", "%llu event(s) were of files the kernel could not open for the recorder: they are not counted",
                 (unsigned long long)r.unopenable);
  jb_begin(&b, "record-result");
  jb_str(&b, "why", why);
  emit_counts(&b, &r, seconds);
  jb_end_emit(&b);
  // A stop by signal is how a recording ends (systemctl stop): a clean end, not an interruption.
  emit_done("ok", 0);
  return 0;
}
