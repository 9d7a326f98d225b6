// The working-set scan (working-set.h). Messages, in order: scan-start; scan-progress (≤ 10/s);
// scan-skip for every folder not walked (another mount, unreadable, too deep); one scan-folder
// per child of the target (name "" for the files directly in it); scan-result; done.
//
// A file counts once: a hard link seen again is skipped (its inode was counted with the first
// name). Bytes are both the apparent size and the allocated blocks (a sparse file occupies on
// an SSD what it allocates, not what its size says).
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/statfs.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "ndjson.h"
#include "target.h"
#include "util.h"
#include "working-set.h"

extern volatile sig_atomic_t g_stop;

#define DENTS_BUF (64 * 1024)
#define MAX_DEPTH 4096
#define STAT_MASK (STATX_TYPE | STATX_MODE | STATX_INO | STATX_NLINK | STATX_UID | STATX_SIZE | STATX_BLOCKS | STATX_ATIME | STATX_MTIME)
#ifndef STATX_MNT_ID
#define STATX_MNT_ID 0x00001000U
#endif

typedef struct {
  char *name;
  uint64_t files, apparent, allocated;
  uint64_t touched[WS_DAYS];  // allocated bytes by days since max(atime, mtime)
  uint64_t written[WS_DAYS];  // allocated bytes by days since mtime
} folder_t;

typedef struct {
  uint64_t *keys;  // (dev << 40) ^ ino is not unique enough: two words per slot
  size_t cap, used;
} inode_set_t;

typedef struct {
  int64_t now_ns;
  uint32_t root_dev_major, root_dev_minor;
  uint64_t root_mnt_id;
  int has_mnt_id;
  uid_t uid;
  folder_t *folders;
  size_t nfolders, cap_folders;
  inode_set_t seen;
  uint64_t files, dirs, other, links_skipped, future, bytes;
  uint64_t vanished;  // entries listed, then gone before they could be looked at (removed while we walked)
  uint64_t next_progress_ns;
  char *bufs[MAX_DEPTH];
  char path[8192];  // the folder being walked, relative to the target, for messages only
} scan_t;

// Returns 1 if (dev, ino) was seen before, else records it.
static int inode_seen(inode_set_t *s, uint64_t dev, uint64_t ino) {
  if (s->used * 2 >= s->cap) {
    size_t cap = s->cap ? s->cap * 2 : 4096;
    uint64_t *keys = calloc(cap * 2, sizeof *keys);
    if (!keys) return 0;  // out of memory: count the link again rather than stop the scan
    for (size_t i = 0; i < s->cap; i++) {
      if (!s->keys[2 * i] && !s->keys[2 * i + 1]) continue;
      size_t j = (s->keys[2 * i + 1] * 0x9E3779B97F4A7C15ull) & (cap - 1);
      while (keys[2 * j] || keys[2 * j + 1]) j = (j + 1) & (cap - 1);
      keys[2 * j] = s->keys[2 * i];
      keys[2 * j + 1] = s->keys[2 * i + 1];
    }
    free(s->keys);
    s->keys = keys;
    s->cap = cap;
  }
  uint64_t a = dev + 1, b = ino;  // +1: an all-zero slot means empty
  size_t j = (b * 0x9E3779B97F4A7C15ull) & (s->cap - 1);
  while (s->keys[2 * j] || s->keys[2 * j + 1]) {
    if (s->keys[2 * j] == a && s->keys[2 * j + 1] == b) return 1;
    j = (j + 1) & (s->cap - 1);
  }
  s->keys[2 * j] = a;
  s->keys[2 * j + 1] = b;
  s->used++;
  return 0;
}

static int64_t ts_ns(struct statx_timestamp t) { return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec; }

static unsigned day_of(scan_t *s, int64_t t_ns) {
  int64_t age = s->now_ns - t_ns;
  if (age < 0) return s->future++, 0;  // a clock ahead of ours: touched "now"
  int64_t day = age / (86400LL * 1000000000LL);
  return day >= WS_DAYS ? WS_DAYS - 1 : (unsigned)day;
}

static void emit_progress(scan_t *s, int force) {
  uint64_t t = now_ns();
  if (!force && t < s->next_progress_ns) return;
  s->next_progress_ns = t + 100000000ull;
  jbuf_t b;
  jb_begin(&b, "scan-progress");
  jb_u64(&b, "files", s->files);
  jb_u64(&b, "dirs", s->dirs);
  jb_u64(&b, "bytes", s->bytes);
  jb_end_emit(&b);
}

static void emit_skip(scan_t *s, const char *name, const char *reason, int err, const struct statx *st) {
  jbuf_t b;
  jb_begin(&b, "scan-skip");
  char full[sizeof s->path + 256];
  snprintf(full, sizeof full, "%s%s%s", s->path, s->path[0] && name[0] ? "/" : "", name);
  jb_str(&b, "path", full);
  jb_str(&b, "reason", reason);
  if (err) jb_str(&b, "errno", strerror(err));
  if (st) {
    jb_u64(&b, "dev_major", st->stx_dev_major);
    jb_u64(&b, "dev_minor", st->stx_dev_minor);
    if (st->stx_mask & STATX_MNT_ID) jb_u64(&b, "mnt_id", st->stx_mnt_id);
  }
  jb_end_emit(&b);
}

static folder_t *folder_add(scan_t *s, const char *name) {
  if (s->nfolders == s->cap_folders) {
    size_t cap = s->cap_folders ? s->cap_folders * 2 : 64;
    folder_t *f = realloc(s->folders, cap * sizeof *f);
    if (!f) return NULL;
    s->folders = f;
    s->cap_folders = cap;
  }
  folder_t *f = &s->folders[s->nfolders++];
  memset(f, 0, sizeof *f);
  f->name = strdup(name);
  return f;
}

static void account_file(scan_t *s, folder_t *f, const struct statx *st) {
  if (st->stx_nlink > 1 && inode_seen(&s->seen, makedev(st->stx_dev_major, st->stx_dev_minor), st->stx_ino)) {
    s->links_skipped++;
    return;
  }
  uint64_t allocated = st->stx_blocks * 512;
  int64_t atime = ts_ns(st->stx_atime), mtime = ts_ns(st->stx_mtime);
  f->files++;
  f->apparent += st->stx_size;
  f->allocated += allocated;
  f->touched[day_of(s, atime > mtime ? atime : mtime)] += allocated;
  f->written[day_of(s, mtime)] += allocated;
  s->files++;
  s->bytes += allocated;
}

// A subfolder on another mount (a different device, or the same device mounted again
// elsewhere: a bind mount) is named, not walked: one filesystem at a time.
static int other_mount(const scan_t *s, const struct statx *st) {
  if (st->stx_dev_major != s->root_dev_major || st->stx_dev_minor != s->root_dev_minor) return 1;
  return s->has_mnt_id && (st->stx_mask & STATX_MNT_ID) && st->stx_mnt_id != s->root_mnt_id;
}

static int open_dir(scan_t *s, int parent, const char *name, const struct statx *st) {
  // O_NOATIME: listing a folder would otherwise mark it read today; the kernel allows it only
  // to the folder's owner (or CAP_FOWNER), so it is asked for only there.
  int flags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC;
  if (st->stx_uid == s->uid || s->uid == 0) {
    int fd = openat(parent, name, flags | O_NOATIME);
    if (fd >= 0 || errno != EPERM) return fd;
  }
  return openat(parent, name, flags);
}

static void walk(scan_t *s, int dirfd, unsigned depth, folder_t *fixed);

static void walk_entry(scan_t *s, int dirfd, unsigned depth, folder_t *fixed, const char *name) {
  struct statx st;
  if (statx(dirfd, name, AT_SYMLINK_NOFOLLOW | AT_NO_AUTOMOUNT | AT_STATX_DONT_SYNC, STAT_MASK | STATX_MNT_ID, &st) != 0) {
    if (errno == ENOENT) s->vanished++;  // removed while we walked: counted, said once at the end
    else emit_skip(s, name, "unreadable", errno, NULL);
    return;
  }
  folder_t *f = fixed;
  if (S_ISREG(st.stx_mode)) {
    if (!f) f = s->nfolders && s->folders[0].name[0] == '\0' ? &s->folders[0] : NULL;
    if (f) account_file(s, f, &st);
    return;
  }
  if (!S_ISDIR(st.stx_mode)) {
    s->other++;  // symbolic links, sockets, devices: no data of their own to keep
    return;
  }
  if (other_mount(s, &st)) {
    emit_skip(s, name, "other-mount", 0, &st);
    return;
  }
  if (depth + 1 >= MAX_DEPTH) {
    emit_skip(s, name, "too-deep", 0, NULL);
    return;
  }
  int fd = open_dir(s, dirfd, name, &st);
  if (fd < 0) {
    if (errno == ENOENT) s->vanished++;
    else emit_skip(s, name, errno == EMFILE || errno == ENFILE ? "too-deep" : "unreadable", errno, NULL);
    return;
  }
  if (!f) f = folder_add(s, name);
  size_t len = strlen(s->path);
  int w = snprintf(s->path + len, sizeof s->path - len, "%s%s", len ? "/" : "", name);
  if (w < 0 || (size_t)w >= sizeof s->path - len) {
    s->path[len] = '\0';
    emit_skip(s, name, "too-deep", ENAMETOOLONG, NULL);
    close(fd);
    return;
  }
  s->dirs++;
  if (f) walk(s, fd, depth + 1, f);
  s->path[len] = '\0';
  close(fd);
}

// The files directly in the target belong to no child folder: they go in folder "" (the first).
static void walk(scan_t *s, int dirfd, unsigned depth, folder_t *fixed) {
  if (!s->bufs[depth] && !(s->bufs[depth] = malloc(DENTS_BUF))) return;
  char *buf = s->bufs[depth];
  for (;;) {
    long n = syscall(SYS_getdents64, dirfd, buf, DENTS_BUF);
    if (n < 0) {
      emit_skip(s, "", "unreadable", errno, NULL);
      return;
    }
    if (n == 0) return;
    for (long off = 0; off < n && !g_stop;) {
      struct dirent64 *d = (struct dirent64 *)(buf + off);
      off += d->d_reclen;
      const char *name = d->d_name;
      if (name[0] == '.' && (!name[1] || (name[1] == '.' && !name[2]))) continue;
      walk_entry(s, dirfd, depth, fixed, name);
      emit_progress(s, 0);
    }
    if (g_stop) return;
  }
}

static void emit_days(jbuf_t *b, const char *key, const uint64_t *days) {
  jb_key(b, key);
  jb_raw(b, "[");
  int first = 1;
  char tmp[64];
  for (unsigned d = 0; d < WS_DAYS; d++) {
    if (!days[d]) continue;
    snprintf(tmp, sizeof tmp, "%s[%u,%llu]", first ? "" : ",", d, (unsigned long long)days[d]);
    jb_raw(b, tmp);
    first = 0;
  }
  jb_raw(b, "]");
}

int working_set_scan(const char *target) {
  static scan_t s;  // large (the per-depth buffers' table); one scan per process
  struct rlimit nofile;
  // Every level of the walk holds its folder open: allow as many as the hard limit lets us.
  if (getrlimit(RLIMIT_NOFILE, &nofile) == 0 && nofile.rlim_cur < nofile.rlim_max) {
    nofile.rlim_cur = nofile.rlim_max;
    setrlimit(RLIMIT_NOFILE, &nofile);
  }
  s.uid = geteuid();
  struct statx st;
  if (statx(AT_FDCWD, target, AT_STATX_DONT_SYNC, STAT_MASK | STATX_MNT_ID, &st) != 0)
    return emit_end(emit_failure(errno == ENOENT ? FAIL_TARGET_MISSING : FAIL_PERMISSION, "cannot read %s: %s", target, strerror(errno)), 0, "");
  if (!S_ISDIR(st.stx_mode))
    return emit_end(emit_failure(FAIL_TARGET_NOT_FOLDER, "%s is not a folder: give the folder to scan", target), 0, "");
  int fd = open_dir(&s, AT_FDCWD, target, &st);
  if (fd < 0) return emit_end(emit_failure(FAIL_PERMISSION, "cannot list %s: %s", target, strerror(errno)), 0, "");
  s.root_dev_major = st.stx_dev_major;
  s.root_dev_minor = st.stx_dev_minor;
  s.has_mnt_id = (st.stx_mask & STATX_MNT_ID) != 0;
  s.root_mnt_id = st.stx_mnt_id;
  struct timespec now;
  clock_gettime(CLOCK_REALTIME, &now);
  s.now_ns = (int64_t)now.tv_sec * 1000000000 + now.tv_nsec;

  struct statfs sfs;
  jbuf_t b;
  jb_begin(&b, "hello");
  jb_str(&b, "worker", WORKER_NAME);
  jb_str(&b, "version", WORKER_VERSION);
  jb_i64(&b, "pid", getpid());
  jb_str(&b, "engine", "getdents64+statx");
  jb_str(&b, "target", target);
  jb_str(&b, "kind", "folder");
  jb_str(&b, "fs", fstatfs(fd, &sfs) == 0 ? fs_name((long)sfs.f_type) : "unknown");
  jb_str(&b, "file", NULL);
  jb_u64(&b, "size", 0);
  jb_bool(&b, "direct", 0);
  jb_u64(&b, "jobs", 0);
  jb_end_emit(&b);
  jb_begin(&b, "scan-start");
  jb_str(&b, "target", target);
  jb_i64(&b, "now_ms", s.now_ns / 1000000);  // what a JSON number holds exactly
  jb_u64(&b, "days", WS_DAYS);
  jb_u64(&b, "dev_major", s.root_dev_major);
  jb_u64(&b, "dev_minor", s.root_dev_minor);
  if (s.has_mnt_id) jb_u64(&b, "mnt_id", s.root_mnt_id);
  jb_end_emit(&b);

  if (!folder_add(&s, "")) return emit_end(emit_failure(FAIL_INTERNAL, "out of memory"), 0, "");
  s.dirs = 1;
  walk(&s, fd, 0, NULL);
  close(fd);
  if (g_stop) return emit_end(0, 1, "nothing: the scan only reads");
  emit_progress(&s, 1);

  for (size_t i = 0; i < s.nfolders; i++) {
    folder_t *f = &s.folders[i];
    jb_begin(&b, "scan-folder");
    jb_str(&b, "name", f->name);
    jb_u64(&b, "files", f->files);
    jb_u64(&b, "apparent", f->apparent);
    jb_u64(&b, "allocated", f->allocated);
    emit_days(&b, "touched", f->touched);
    emit_days(&b, "written", f->written);
    jb_end_emit(&b);
  }
  jb_begin(&b, "scan-result");
  jb_u64(&b, "files", s.files);
  jb_u64(&b, "dirs", s.dirs);
  jb_u64(&b, "other", s.other);
  jb_u64(&b, "links_skipped", s.links_skipped);
  jb_u64(&b, "future", s.future);
  jb_u64(&b, "vanished", s.vanished);
  jb_end_emit(&b);
  emit_done("ok", 0);
  return 0;
}
