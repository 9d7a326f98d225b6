// The access recorder (access-recorder.h): reads a fanotify group marking one whole filesystem
// and appends, per touch of a file, one line to the trace: when (ms), a keyed hash of the file's
// identity, its allocated bytes, and what was done (o: opened, r: read, w: modified). Nothing
// else of the file is kept: no path, no name, no owner, no pid.
//
// Trace lines (NDJSON, appended; a stop and a resume add a session to the same file):
//   {"v":1,"type":"trace","fsid":…,"fs":…,"key":…,"created_ms":…}   once, first
//   {"type":"session","t":…,"merge_ms":…}                         each start
//   {"t":…,"f":"<16 hex>","s":BYTES,"k":"or"}                     a touch
//   {"type":"lost","t":…}                                         the kernel's queue overflowed (how many is not said)
//   {"type":"end","t":…,"why":"signal"|"time-limit",…}            each clean stop
// The hash is SipHash-2-4 of the filesystem's id and the file's handle (which carries the inode's
// generation, so a reused inode number is another file) under a random key made with the trace
// and kept in its first line: the same file hashes alike across sessions and either kind of
// group, and without the key (and the filesystem) a hash names nothing. The trace is 0600.
//
// The bytes: with a descriptors group (root's own), fstat of the event's descriptor. With a
// handles group (the helper's, fanotify-group.h) the event names the file's folder by handle and
// the entry by name; the recorder knows the folders under --target it may walk (a map from folder
// handle to path, in memory only, kept whole as folders are made or moved in) and stats the entry
// there, checking that it is still the event's file. A touch it cannot size (a folder outside
// --target or closed to the user) is kept with "s":null: counted, never in the curve.
#include "access-recorder.h"

#include <dirent.h>
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
#include <sys/stat.h>
#include <sys/statfs.h>
#include <time.h>
#include <unistd.h>

#include "elevate.h"
#include "fanotify-group.h"
#include "ndjson.h"
#include "target.h"
#include "util.h"

extern volatile sig_atomic_t g_stop;

#define EVENT_BUF (64 * 1024)
#define PROGRESS_NS 1000000000ull
#define SYNC_NS (60 * 1000000000ull)

// ---- SipHash-2-4 (Aumasson and Bernstein), 64-bit output ----
#define SIPROUND                                                    \
  do {                                                              \
    v0 += v1, v1 = rotl64(v1, 13), v1 ^= v0, v0 = rotl64(v0, 32);    \
    v2 += v3, v3 = rotl64(v3, 16), v3 ^= v2;                        \
    v0 += v3, v3 = rotl64(v3, 21), v3 ^= v0;                        \
    v2 += v1, v1 = rotl64(v1, 17), v1 ^= v2, v2 = rotl64(v2, 32);    \
  } while (0)

static uint64_t le64(const uint8_t *p) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; i--) v = (v << 8) | p[i];
  return v;
}

static uint64_t siphash(const uint8_t key[16], const uint8_t *in, size_t len) {
  uint64_t k0 = le64(key), k1 = le64(key + 8);
  uint64_t v0 = 0x736f6d6570736575ull ^ k0, v1 = 0x646f72616e646f6dull ^ k1;
  uint64_t v2 = 0x6c7967656e657261ull ^ k0, v3 = 0x7465646279746573ull ^ k1;
  size_t whole = len - len % 8;
  for (size_t i = 0; i < whole; i += 8) {
    uint64_t m = le64(in + i);
    v3 ^= m;
    SIPROUND;
    SIPROUND;
    v0 ^= m;
  }
  uint64_t b = (uint64_t)len << 56;
  for (size_t i = 0; i < len % 8; i++) b |= (uint64_t)in[whole + i] << (8 * i);
  v3 ^= b;
  SIPROUND;
  SIPROUND;
  v0 ^= b;
  v2 ^= 0xff;
  SIPROUND;
  SIPROUND;
  SIPROUND;
  SIPROUND;
  return v0 ^ v1 ^ v2 ^ v3;
}

// ---- files seen this session: the merge window per kind of touch ----
enum { KIND_OPEN, KIND_READ, KIND_WRITE, KINDS };
static const char KIND_LETTER[KINDS] = {'o', 'r', 'w'};

typedef struct {
  uint64_t hash;  // 0: empty slot (a real hash of 0 is stored as 1)
  int64_t last_ms[KINDS];
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
    t->used++;
  }
  return &t->slots[j];
}

// ---- folders the recorder may walk: folder handle hash → path (memory only, never written) ----
typedef struct {
  uint64_t hash;
  char *path;
} folder_slot_t;

typedef struct {
  folder_slot_t *slots;
  size_t cap, used;
  uint64_t unwalked;  // folders under --target the user may not enter, or too deep
} folder_map_t;

static const char *folder_find(const folder_map_t *m, uint64_t hash) {
  if (!m->cap) return NULL;
  for (size_t j = hash & (m->cap - 1); m->slots[j].hash; j = (j + 1) & (m->cap - 1))
    if (m->slots[j].hash == hash) return m->slots[j].path;
  return NULL;
}

static void folder_put(folder_map_t *m, uint64_t hash, const char *path) {
  if (m->used * 2 >= m->cap) {
    size_t cap = m->cap ? m->cap * 2 : 1024;
    folder_slot_t *slots = calloc(cap, sizeof *slots);
    if (!slots) return;
    for (size_t i = 0; i < m->cap; i++) {
      if (!m->slots[i].hash) continue;
      size_t j = m->slots[i].hash & (cap - 1);
      while (slots[j].hash) j = (j + 1) & (cap - 1);
      slots[j] = m->slots[i];
    }
    free(m->slots);
    m->slots = slots;
    m->cap = cap;
  }
  size_t j = hash & (m->cap - 1);
  while (m->slots[j].hash && m->slots[j].hash != hash) j = (j + 1) & (m->cap - 1);
  char *copy = strdup(path);
  if (!copy) return;
  if (m->slots[j].hash) free(m->slots[j].path);  // moved: the handle is the same folder, the path new
  else m->used++;
  m->slots[j] = (folder_slot_t){.hash = hash, .path = copy};
}

static void folder_map_free(folder_map_t *m) {
  for (size_t i = 0; i < m->cap; i++) free(m->slots[i].path);
  free(m->slots);
}

// ---- the recording ----
typedef struct {
  int fan, trace;
  dev_t trace_dev;
  ino_t trace_ino;
  uint8_t key[16];
  uint8_t fsid[8];
  unsigned merge_ms;
  int handles;  // the group reports handles (the helper's), not descriptors
  seen_table_t seen;
  folder_map_t folders;
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

// A file's identity: its filesystem and handle, the same whether the handle came from an event
// (handles group) or from the event's descriptor (descriptors group).
static uint64_t handle_hash(const uint8_t key[16], const uint8_t fsid[8], int type, const unsigned char *bytes, unsigned len) {
  uint8_t in[8 + 4 + MAX_HANDLE_SZ];
  if (len > MAX_HANDLE_SZ) len = MAX_HANDLE_SZ;
  memcpy(in, fsid, 8);
  memcpy(in + 8, &type, 4);
  memcpy(in + 12, bytes, len);
  uint64_t h = siphash(key, in, 12 + len);
  return h ? h : 1;
}

typedef struct {
  struct file_handle fh;
  unsigned char bytes[MAX_HANDLE_SZ];
} handle_buf_t;

static int handle_of(int dirfd, const char *name, int flags, handle_buf_t *h) {
  int mount_id;
  h->fh.handle_bytes = MAX_HANDLE_SZ;
  return name_to_handle_at(dirfd, name, &h->fh, &mount_id, flags);
}

static uint64_t identity_hash(const recorder_t *r, int fd, const struct stat *st) {
  handle_buf_t h;
  if (handle_of(fd, "", AT_EMPTY_PATH, &h) == 0) return handle_hash(r->key, r->fsid, h.fh.handle_type, h.fh.f_handle, h.fh.handle_bytes);
  uint64_t id[2] = {st->st_dev, st->st_ino};  // a filesystem without handles (its group had descriptors)
  return handle_hash(r->key, r->fsid, -1, (const unsigned char *)id, sizeof id);
}

#define WALK_DEPTH 256

static void map_folder(recorder_t *r, int fd, const char *path) {
  handle_buf_t h;
  if (handle_of(fd, "", AT_EMPTY_PATH, &h) == 0)
    folder_put(&r->folders, handle_hash(r->key, r->fsid, h.fh.handle_type, h.fh.f_handle, h.fh.handle_bytes), path);
}

// Every folder under `path` on this filesystem that the user may enter, into the folder map.
static void walk_folders(recorder_t *r, int fd, const char *path, dev_t dev, unsigned depth) {
  map_folder(r, fd, path);
  if (depth >= WALK_DEPTH) {
    r->folders.unwalked++;
    return;
  }
  int dup_fd = openat(fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  DIR *d = dup_fd >= 0 ? fdopendir(dup_fd) : NULL;
  if (!d) {
    if (dup_fd >= 0) close(dup_fd);
    r->folders.unwalked++;
    return;
  }
  struct dirent *e;
  while ((e = readdir(d)) && !g_stop) {
    if (e->d_name[0] == '.' && (!e->d_name[1] || (e->d_name[1] == '.' && !e->d_name[2]))) continue;
    if (e->d_type != DT_DIR && e->d_type != DT_UNKNOWN) continue;
    int sub = openat(dirfd(d), e->d_name, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (sub < 0) continue;  // not a folder (DT_UNKNOWN), or gone
    struct stat st;
    size_t len = strlen(path) + strlen(e->d_name) + 2;
    char *child = malloc(len);
    if (child && fstat(sub, &st) == 0 && st.st_dev == dev) {
      snprintf(child, len, "%s/%s", strcmp(path, "/") == 0 ? "" : path, e->d_name);
      walk_folders(r, sub, child, dev, depth + 1);
    }
    free(child);
    close(sub);
  }
  closedir(d);
}

// A handles group's event: the file's handle (FID) and its folder's handle with the entry's name
// (DFID_NAME). Returns the file's identity hash (0: none) and its allocated bytes (-1: unknown).
static uint64_t handle_event(recorder_t *r, const struct fanotify_event_metadata *m, int64_t *bytes) {
  const struct file_handle *file = NULL, *folder = NULL;
  const char *name = NULL;
  const char *p = (const char *)m + m->metadata_len, *end = (const char *)m + m->event_len;
  while (p + sizeof(struct fanotify_event_info_header) <= end) {
    const struct fanotify_event_info_header *hdr = (const void *)p;
    if (hdr->len < sizeof *hdr || p + hdr->len > end) break;
    const struct fanotify_event_info_fid *fid = (const void *)p;
    const struct file_handle *fh = (const void *)fid->handle;
    if (hdr->info_type == FAN_EVENT_INFO_TYPE_FID) file = fh;
    else if (hdr->info_type == FAN_EVENT_INFO_TYPE_DFID_NAME) {
      folder = fh;
      name = (const char *)fh->f_handle + fh->handle_bytes;
    } else if (hdr->info_type == FAN_EVENT_INFO_TYPE_DFID)
      folder = fh;
    p += hdr->len;
  }
  *bytes = -1;
  const char *dir = folder ? folder_find(&r->folders, handle_hash(r->key, r->fsid, folder->handle_type, folder->f_handle, folder->handle_bytes)) : NULL;
  char path[PATH_MAX];
  int named = dir && name && snprintf(path, sizeof path, "%s/%s", strcmp(dir, "/") == 0 ? "" : dir, name) < (int)sizeof path;
  if (m->mask & FAN_ONDIR) {
    // A folder made or moved in (the caller checked): mapped, so the files later made in it are sized too.
    int fd = named ? open(path, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) : -1;
    if (fd >= 0) {
      struct stat st;
      if (fstat(fd, &st) == 0) walk_folders(r, fd, path, st.st_dev, 0);
      close(fd);
    }
    return 0;
  }
  if (!file) return 0;
  uint64_t hash = handle_hash(r->key, r->fsid, file->handle_type, file->f_handle, file->handle_bytes);
  struct stat st;
  handle_buf_t now;
  // Still the event's file under that name (not renamed away or replaced meanwhile)?
  if (named && fstatat(AT_FDCWD, path, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode) &&
      handle_of(AT_FDCWD, path, 0, &now) == 0 && now.fh.handle_type == file->handle_type &&
      now.fh.handle_bytes == file->handle_bytes && memcmp(now.fh.f_handle, file->f_handle, file->handle_bytes) == 0) {
    if (st.st_dev == r->trace_dev && st.st_ino == r->trace_ino) return 0;
    *bytes = (int64_t)st.st_blocks * 512;
  }
  return hash;
}

static void take_event(recorder_t *r, const struct fanotify_event_metadata *m, int64_t now) {
  r->events++;
  if (m->mask & FAN_Q_OVERFLOW) {
    r->lost++;
    out_line(r, "{\"type\":\"lost\",\"t\":%lld}\n", (long long)now);
    return;
  }
  uint64_t hash;
  int64_t bytes = -1;
  if (m->pid == getpid()) {  // the trace's own writes (and folders this process opened)
    if (m->fd >= 0) close(m->fd);
    return;
  }
  if (m->mask & FAN_ONDIR) {  // only a handles group hears folders: made or moved in, they are mapped
    if (m->mask & (FAN_CREATE | FAN_MOVED_TO)) handle_event(r, m, &bytes);
    return;
  }
  if (r->handles) {
    hash = handle_event(r, m, &bytes);
    if (!hash) {
      r->other++;
      return;
    }
  } else {
    if (m->fd < 0) {  // FAN_REPORT_FD_ERROR: the kernel could not open the file
      r->unopenable++;
      return;
    }
    struct stat st;
    int ok = fstat(m->fd, &st) == 0 && S_ISREG(st.st_mode) && !(st.st_dev == r->trace_dev && st.st_ino == r->trace_ino);
    if (!ok) {
      r->other++;
      close(m->fd);
      return;
    }
    hash = identity_hash(r, m->fd, &st);
    bytes = (int64_t)st.st_blocks * 512;
    close(m->fd);
  }
  seen_t *seen = seen_find(&r->seen, hash);
  char kinds[KINDS + 1];
  int n = 0;
  const uint64_t masks[KINDS] = {FAN_OPEN, FAN_ACCESS, FAN_MODIFY};
  for (int k = 0; k < KINDS; k++) {
    if (!(m->mask & masks[k])) continue;
    // The merge window: a file read in a thousand read()s within it is one touch.
    if (seen && r->merge_ms && now - seen->last_ms[k] < (int64_t)r->merge_ms) continue;
    if (seen) seen->last_ms[k] = now;
    kinds[n++] = KIND_LETTER[k];
  }
  kinds[n] = 0;
  if (!n) {
    r->merged++;
    return;
  }
  r->records++;
  char size[24] = "null";
  if (bytes >= 0) snprintf(size, sizeof size, "%lld", (long long)bytes);
  else if (strpbrk(kinds, "rw")) r->unsized++;  // a touch the curve cannot count (an open alone is none)
  out_line(r, "{\"t\":%lld,\"f\":\"%016llx\",\"s\":%s,\"k\":\"%s\"}\n", (long long)now, (unsigned long long)hash, size, kinds);
}

// Reads what the kernel has queued, until it has nothing more (the group is non-blocking).
// Returns 0, or -1 when the trace cannot be written.
static int drain(recorder_t *r) {
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
  r->trace = open(path, O_RDWR | O_CREAT | O_APPEND | O_NOFOLLOW | O_CLOEXEC, 0600);
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

// Where the group comes from: an inherited descriptor, the helper, or this process as root.
// Returns the descriptor, or minus an exit code after an error line.
static int open_group(recorder_t *r, const record_opts_t *o, int dir, int *fd_error) {
  char why[512];
  *fd_error = -1;  // not known
  if (o->fd) {
    long flags = group_flags(o->fd);
    if (flags < 0) return -emit_failure(FAIL_BAD_FD, "descriptor %u is not a fanotify group: it must be the one the helper's fanotify-open passed", o->fd);
    r->handles = (flags & FAN_REPORT_FID) != 0;
    fcntl((int)o->fd, F_SETFD, FD_CLOEXEC);
    int fl = fcntl((int)o->fd, F_GETFL);
    if (fl >= 0) fcntl((int)o->fd, F_SETFL, fl | O_NONBLOCK);
    return (int)o->fd;
  }
  if (o->helper) {
    int fd = -1;
    int rc = elevate_open_fanotify(o->helper, o->target, &fd);
    if (rc) return -rc;
    r->handles = 1;
    return fd;
  }
  int fd = fanotify_group_open(dir, FANOTIFY_WITH_FDS, fd_error, why, sizeof why);
  if (fd >= 0) return fd;
  if (errno == EPERM)
    return -emit_failure(FAIL_NEEDS_ELEVATION, "%s; the recorder needs DiskDelta's polkit helper (it makes only the group) or root", why);
  return -emit_failure(FAIL_TARGET_UNUSABLE, "%s", why);
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
  // A handles group's events are sized through the folders under --target the user may walk.
  // The group is open first, so a folder made during the walk is heard of too.
  if (!rc && r.handles) {
    char root[PATH_MAX];
    if (!realpath(o->target, root)) snprintf(root, sizeof root, "%s", o->target);
    struct stat st;
    if (fstat(dir, &st) == 0) walk_folders(&r, dir, root, st.st_dev, 0);
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
  int64_t started = wall_ms();
  out_line(&r, "{\"type\":\"session\",\"t\":%lld,\"merge_ms\":%u,\"group\":\"%s\"}\n", (long long)started, r.merge_ms,
           r.handles ? "handles" : "descriptors");
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
  jb_str(&b, "group", r.handles ? "handles" : "descriptors");
  if (r.handles) jb_u64(&b, "folders", r.folders.used);
  if (r.handles && r.folders.unwalked) jb_u64(&b, "folders_unwalked", r.folders.unwalked);
  if (fd_error >= 0) jb_bool(&b, "fd_error", fd_error);
  jb_end_emit(&b);

  uint64_t t0 = now_ns(), last_progress = t0, last_sync = t0;
  uint64_t limit = o->seconds > 0 ? (uint64_t)(o->seconds * 1e9) : 0;
  const char *why = "signal";
  int failed = 0;
  while (!g_stop) {
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
      fdatasync(r.trace);
    }
  }
  // What the kernel queued before the stop is still recorded: nothing seen is lost.
  if (!failed && drain(&r) != 0) failed = errno ? errno : EIO;
  double seconds = (double)(now_ns() - t0) / 1e9;
  if (!failed) {
    out_line(&r, "{\"type\":\"end\",\"t\":%lld,\"why\":\"%s\",\"events\":%llu,\"records\":%llu,\"unopenable\":%llu,\"lost\":%llu}\n",
             (long long)wall_ms(), why, (unsigned long long)r.events, (unsigned long long)r.records,
             (unsigned long long)r.unopenable, (unsigned long long)r.lost);
    if (out_flush(&r) != 0) failed = errno ? errno : EIO;
  }
  fdatasync(r.trace);
  close(r.fan);
  close(r.trace);
  free(r.out);
  free(r.seen.slots);
  folder_map_free(&r.folders);
  if (failed)
    return emit_end(emit_failure(failed == ENOSPC ? FAIL_NO_SPACE : FAIL_IO_ERROR, "writing the trace %s failed: %s; what was written before stays",
                                 o->trace, strerror(failed)),
                    0, "");
  if (r.lost)
    emit_warning("record-lost", "the kernel's event queue overflowed %llu time(s): some accesses were not recorded (a busy machine; the curve under-counts them)",
                 (unsigned long long)r.lost);
  if (r.unsized)
    emit_warning("record-unsized", "%llu touch(es) were of files outside the folders under %s you may walk: kept without their size, "
                 "they are not in the cache curve", (unsigned long long)r.unsized, o->target);
  if (r.unopenable)
    emit_warning("record-unopenable", "%llu event(s) were of files you may not open: recorded as the user, they are not counted",
                 (unsigned long long)r.unopenable);
  jb_begin(&b, "record-result");
  jb_str(&b, "why", why);
  emit_counts(&b, &r, seconds);
  jb_end_emit(&b);
  // A stop by signal is how a recording ends (systemctl stop): a clean end, not an interruption.
  emit_done("ok", 0);
  return 0;
}
