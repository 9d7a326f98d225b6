#include "workload.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "child.h"
#include "ndjson.h"
#include "own-tree.h"
#include "text-append.h"
#include "testfile-name.h"
#include "tree-shape.h"
#include "util.h"

extern volatile sig_atomic_t g_stop;

// The tree's layout and content come from fixed seeds: the same options write the same tree,
// byte for byte, on every machine (content is random, so nothing compresses or deduplicates).
#define TREE_SEED 0x6c696e7578ull  // "linux"
#define APP_SEED 0x617070ull       // "app"
#define CHUNK (1u << 20)

// ---------------------------------------------------------------------------------------------
// The work folder: .diskdelta-PID-TAG.tmp under the target, locked while this process lives.

typedef struct {
  int target_fd;
  int fd;  // the work folder, flock'ed
  char name[64];
} workdir_t;

static int fail_errno(int e, const char *what, const char *path) {
  failure_t f = e == ENOSPC ? FAIL_NO_SPACE
                : e == EROFS ? FAIL_TARGET_NOT_WRITABLE
                : e == EACCES || e == EPERM ? FAIL_PERMISSION
                : e == EIO ? FAIL_IO_ERROR : FAIL_TARGET_UNUSABLE;
  return emit_failure(f, "%s %s failed: %s%s", what, shown_path(path), strerror(e),
                      e == ENOSPC ? ". Free some space or choose a smaller workload" : "");
}

static int workdir_open(workdir_t *w, const char *target) {
  w->fd = -1;
  w->target_fd = open(target, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (w->target_fd < 0) {
    int e = errno;
    if (e == ENOENT) return emit_failure(FAIL_TARGET_MISSING, "the target %s does not exist. Give an existing folder", shown_path(target));
    if (e == ENOTDIR)
      return emit_failure(FAIL_TARGET_UNUSABLE, "the target %s is not a folder: workloads write files, so give a folder on the disk",
                          shown_path(target));
    return fail_errno(e, "opening the folder", target);
  }
  uint64_t tag;
  if (syscall(SYS_getrandom, &tag, sizeof tag, 0) != (long)sizeof tag) tag = now_ns();
  snprintf(w->name, sizeof w->name, "%s%d-%016llx%s", TESTFILE_PREFIX, (int)getpid(), (unsigned long long)tag, TESTFILE_SUFFIX);
  if (mkdirat(w->target_fd, w->name, 0700) != 0) {
    int e = errno;
    w->name[0] = 0;
    return fail_errno(e, "creating the work folder in", target);
  }
  w->fd = openat(w->target_fd, w->name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  int e = errno;
  // Whoever may write in the target could swap a link or a folder of their own in under our name
  // before the open: ours is the one this process owns. From here on everything is reached from
  // w->fd (0700: nobody else may enter it), never by a path again.
  struct stat st;
  if (w->fd < 0 && e != ENOTDIR && e != ELOOP) return fail_errno(e, "opening the work folder in", target);
  if (w->fd < 0 || fstat(w->fd, &st) != 0 || st.st_uid != geteuid() || fchmod(w->fd, 0700) != 0) {
    int rc = emit_failure(FAIL_TARGET_UNUSABLE, "the work folder %s in %s was replaced by someone else's as it was made; nothing "
                          "was written there. Choose a folder only you may write to", w->name, shown_path(target));
    w->name[0] = 0;  // not ours: never removed
    return rc;
  }
  // The lock tells a later run that this folder is alive (sweep_stale_files); the marker, written
  // only once the lock is held, that a worker made it.
  if (flock(w->fd, LOCK_EX | LOCK_NB) != 0)
    return emit_failure(FAIL_TARGET_UNUSABLE, "cannot lock the work folder in %s (%s): without the lock another run could take "
                        "it for a killed run's. Choose a folder on a filesystem with file locks", shown_path(target), strerror(errno));
  int m = openat(w->fd, WORKDIR_MARKER, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  size_t len = strlen(w->name);
  int wrote = m >= 0 && write(m, w->name, len) == (ssize_t)len;
  if (m < 0 || close(m) != 0 || !wrote) return fail_errno(errno, "writing the work folder's marker in", target);
  return 0;
}

static void workdir_close(workdir_t *w) {
  if (w->name[0] && w->fd >= 0) {
    // Emptied through its descriptor, wherever it is now; its name is removed only if it still
    // names this folder (someone who may write in the target could have moved it away).
    char failed[256] = "";
    int rc = remove_own_contents(w->fd, failed, sizeof failed);
    struct stat mine, named;
    int same = fstat(w->fd, &mine) == 0 && fstatat(w->target_fd, w->name, &named, AT_SYMLINK_NOFOLLOW) == 0 &&
               mine.st_dev == named.st_dev && mine.st_ino == named.st_ino;
    if (rc == 0 && same && unlinkat(w->target_fd, w->name, AT_REMOVEDIR) != 0) rc = -errno;
    if (rc != 0)
      emit_warning("cleanup-failed", "could not remove the work folder %s (at %s inside it): %s", w->name, failed[0] ? failed : ".",
                   strerror(-rc));
    else if (!same)
      emit_warning("workdir-moved", "the work folder %s was moved away or replaced in the target while the run went on; its "
                   "contents were removed, the empty folder is wherever it was moved to", w->name);
    w->name[0] = 0;
  }
  if (w->fd >= 0) close(w->fd);
  if (w->target_fd >= 0) close(w->target_fd);
  w->fd = w->target_fd = -1;
}

// ---------------------------------------------------------------------------------------------
// Messages

static void emit_workload_hello(const char *target, const char *workload, unsigned jobs) {
  jbuf_t b;
  jb_begin(&b, "hello");
  jb_str(&b, "worker", WORKER_NAME);
  jb_str(&b, "version", WORKER_VERSION);
  jb_i64(&b, "pid", getpid());
  jb_str(&b, "engine", workload);  // workloads use plain system calls, as the programs they stand for do
  jb_str(&b, "target", target);
  jb_str(&b, "kind", "folder");
  jb_str(&b, "fs", "");
  jb_str(&b, "file", NULL);
  jb_u64(&b, "size", 0);
  jb_bool(&b, "direct", 0);
  jb_u64(&b, "jobs", jobs);
  jb_end_emit(&b);
}

typedef struct {
  const char *workload, *phase;
  unsigned run;  // 0 for a warm-up pass
  double seconds, sync_seconds, spread_seconds;
  uint64_t files, bytes;
  const char *cold;  // app-start: how the cache was emptied
} phase_msg_t;

static void emit_phase(const phase_msg_t *m) {
  jbuf_t b;
  jb_begin(&b, "phase");
  jb_str(&b, "workload", m->workload);
  jb_str(&b, "phase", m->phase);
  jb_u64(&b, "run", m->run);
  jb_bool(&b, "warmup", m->run == 0);
  jb_dbl(&b, "seconds", m->seconds);
  jb_dbl(&b, "sync_seconds", m->sync_seconds);
  if (m->spread_seconds >= 0) jb_dbl(&b, "spread_seconds", m->spread_seconds);
  jb_u64(&b, "files", m->files);
  jb_u64(&b, "bytes", m->bytes);
  if (m->cold) jb_str(&b, "cold", m->cold);
  jb_end_emit(&b);
}

static int finish_workload(workdir_t *w, int rc) {
  workdir_close(w);
  return emit_end(rc, g_stop, "the work folder was removed");
}

static double seconds_since(uint64_t t0) { return (double)(now_ns() - t0) / 1e9; }

// Writes `size` incompressible bytes to a new file; content from a seed, so reproducible.
static int write_file_at(int dir_fd, const char *path, uint64_t size, uint64_t seed, char *buf, uint64_t *written) {
  int fd = openat(dir_fd, path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
  if (fd < 0) return -errno;
  rng_t rng;
  rng_seed(&rng, seed);
  uint64_t done = 0;
  while (done < size && !g_stop) {
    size_t n = size - done < CHUNK ? (size_t)(size - done) : CHUNK;
    fill_random(&rng, buf, n);
    ssize_t w = write(fd, buf, n);
    if (w < 0 || (size_t)w != n) {
      int e = w < 0 ? errno : ENOSPC;
      close(fd);
      return -e;
    }
    done += n;
    *written += n;
  }
  return close(fd) == 0 ? 0 : -errno;
}

static int sync_folder(int fd, double *seconds) {
  uint64_t t = now_ns();
  int rc = syncfs(fd) == 0 ? 0 : -errno;
  *seconds = seconds_since(t);
  return rc;
}

// ---------------------------------------------------------------------------------------------
// tree: the release's shape (tree-shape.h), scaled to --tree-files / --tree-bytes when asked.

typedef struct {
  uint32_t depth_count;
  uint32_t dirs[TREE_DEPTH_COUNT + 1];   // per depth 1..count
  uint32_t files[TREE_DEPTH_COUNT + 1];  // per depth 1..count
  uint64_t nfiles, nbytes, ndirs;
  uint64_t *sizes;  // per file, in write order
} tree_plan_t;

// Scales counts so they add up to exactly `total` (largest remainder on the largest entry).
static void scale_counts(const uint64_t *in, uint64_t *out, unsigned n, uint64_t in_total, uint64_t total) {
  uint64_t sum = 0;
  unsigned largest = 0;
  for (unsigned i = 0; i < n; i++) {
    out[i] = (uint64_t)((double)in[i] * (double)total / (double)in_total + 0.5);
    sum += out[i];
    if (in[i] > in[largest]) largest = i;
  }
  if (sum > total) out[largest] -= sum - total;
  else out[largest] += total - sum;
}

static int tree_plan(tree_plan_t *p, uint64_t files, uint64_t bytes) {
  memset(p, 0, sizeof *p);
  p->depth_count = TREE_DEPTH_COUNT;
  uint64_t in[TREE_SIZE_COUNT > TREE_DEPTH_COUNT ? TREE_SIZE_COUNT : TREE_DEPTH_COUNT], out[sizeof in / sizeof in[0]];
  for (unsigned d = 0; d < TREE_DEPTH_COUNT; d++) in[d] = TREE_DEPTHS[d].files;
  scale_counts(in, out, TREE_DEPTH_COUNT, TREE_SHAPE_FILES, files);
  for (unsigned d = 0; d < TREE_DEPTH_COUNT; d++) p->files[d + 1] = (uint32_t)out[d];
  // Folders scale with the files; a depth that holds anything below it keeps at least one.
  for (int d = TREE_DEPTH_COUNT; d >= 1; d--) {
    uint64_t dirs = (uint64_t)((double)TREE_DEPTHS[d - 1].dirs * (double)files / (double)TREE_SHAPE_FILES + 0.5);
    int holds = (d < (int)TREE_DEPTH_COUNT) && (p->files[d + 1] > 0 || p->dirs[d + 1] > 0);
    if (dirs == 0 && holds) dirs = 1;
    if (!holds && TREE_DEPTHS[d - 1].dirs == 0) dirs = 0;
    p->dirs[d] = (uint32_t)dirs;
    p->ndirs += dirs;
  }
  // Sizes: each bucket's count scaled like the files, its bytes so that the tree adds up to `bytes`.
  uint64_t counts[TREE_SIZE_COUNT];
  for (unsigned b = 0; b < TREE_SIZE_COUNT; b++) in[b] = TREE_SIZES[b].files;
  scale_counts(in, counts, TREE_SIZE_COUNT, TREE_SHAPE_FILES, files);
  p->sizes = malloc((files ? files : 1) * sizeof *p->sizes);
  if (!p->sizes) return emit_failure(FAIL_INTERNAL, "cannot allocate the tree's plan (%llu files)", (unsigned long long)files);
  // Each bucket keeps its mean size relative to the others; all of them scaled so that the
  // tree adds up to exactly `bytes`.
  double raw[TREE_SIZE_COUNT], raw_sum = 0;
  unsigned largest = 0;
  for (unsigned b = 0; b < TREE_SIZE_COUNT; b++) {
    raw[b] = TREE_SIZES[b].files ? (double)TREE_SIZES[b].bytes / (double)TREE_SIZES[b].files * (double)counts[b] : 0;
    raw_sum += raw[b];
    if (raw[b] > raw[largest]) largest = b;
  }
  uint64_t totals[TREE_SIZE_COUNT], assigned = 0;
  for (unsigned b = 0; b < TREE_SIZE_COUNT; b++) assigned += totals[b] = raw_sum > 0 ? (uint64_t)(raw[b] * (double)bytes / raw_sum) : 0;
  totals[largest] += bytes - assigned;
  rng_t rng;
  rng_seed(&rng, TREE_SEED);
  uint64_t k = 0;
  for (unsigned b = 0; b < TREE_SIZE_COUNT; b++) {
    uint64_t c = counts[b], total = totals[b];
    if (c == 0) continue;
    uint64_t mean = total / c;
    // Pairs around the mean (mean ± d, d up to a quarter of it): the bucket's total exactly.
    for (uint64_t i = 0; i < c; i++) {
      uint64_t d = (i + 1 < c && i % 2 == 0) ? rng_below(&rng, mean / 4 + 1) : 0;
      p->sizes[k + i] = mean + d;
      if (d) p->sizes[k + ++i] = mean - d;
    }
    p->sizes[k] += total - mean * c;
    k += c;
  }
  // Shuffled (Fisher-Yates), so sizes are not grouped by bucket on disk.
  for (uint64_t i = files; i > 1; i--) {
    uint64_t j = rng_below(&rng, i);
    uint64_t t = p->sizes[i - 1];
    p->sizes[i - 1] = p->sizes[j];
    p->sizes[j] = t;
  }
  p->nfiles = files;
  for (uint64_t i = 0; i < files; i++) p->nbytes += p->sizes[i];
  return 0;
}

// The path of folder j at depth d: t/dA/dB/…, each folder spread evenly over the one above.
static void dir_path(const tree_plan_t *p, unsigned d, uint64_t j, char *out, size_t cap) {
  uint64_t idx[TREE_DEPTH_COUNT + 1];
  for (unsigned e = d; e >= 1; e--) {
    idx[e] = j;
    if (e > 1) j = j * p->dirs[e - 1] / p->dirs[e];
  }
  size_t len = 0;
  text_append(out, cap, &len, "t");
  for (unsigned e = 1; e <= d; e++) text_append(out, cap, &len, "/d%llu", (unsigned long long)idx[e]);
}

// The folder a file k of depth d lies in: the root, or a folder of depth d-1 (files spread evenly).
static void file_path(const tree_plan_t *p, unsigned d, uint64_t k, char *out, size_t cap) {
  if (d == 1 || p->dirs[d - 1] == 0) {
    snprintf(out, cap, "t/f%llu", (unsigned long long)k);
    return;
  }
  dir_path(p, d - 1, k * p->dirs[d - 1] / p->files[d], out, cap);
  size_t len = strlen(out);
  snprintf(out + len, cap - len, "/f%llu", (unsigned long long)k);
}

static int tree_write(const tree_plan_t *p, int wfd, char *buf, uint64_t *files, uint64_t *bytes) {
  char path[PATH_MAX];
  if (mkdirat(wfd, "t", 0755) != 0) return -errno;
  uint64_t index = 0;
  for (unsigned d = 1; d <= p->depth_count && !g_stop; d++) {
    for (uint64_t j = 0; j < p->dirs[d] && !g_stop; j++) {
      dir_path(p, d, j, path, sizeof path);
      if (mkdirat(wfd, path, 0755) != 0) return -errno;
    }
    for (uint64_t k = 0; k < p->files[d] && !g_stop; k++, index++) {
      file_path(p, d, k, path, sizeof path);
      int rc = write_file_at(wfd, path, p->sizes[index], TREE_SEED ^ (index * 0x9e3779b97f4a7c15ull), buf, bytes);
      if (rc != 0) return rc;
      (*files)++;
    }
  }
  return 0;
}

static int tree_delete(const tree_plan_t *p, int wfd, uint64_t *files) {
  char path[PATH_MAX];
  for (unsigned d = 1; d <= p->depth_count && !g_stop; d++)
    for (uint64_t k = 0; k < p->files[d] && !g_stop; k++) {
      file_path(p, d, k, path, sizeof path);
      if (unlinkat(wfd, path, 0) != 0) return -errno;
      (*files)++;
    }
  for (unsigned d = p->depth_count; d >= 1 && !g_stop; d--)
    for (uint64_t j = 0; j < p->dirs[d] && !g_stop; j++) {
      dir_path(p, d, j, path, sizeof path);
      if (unlinkat(wfd, path, AT_REMOVEDIR) != 0) return -errno;
    }
  return g_stop || unlinkat(wfd, "t", AT_REMOVEDIR) == 0 ? 0 : -errno;
}

static int check_room(const char *target, uint64_t need, const char *what) {
  struct statvfs sv;
  if (statvfs(target, &sv) != 0) return 0;
  uint64_t avail = (uint64_t)sv.f_bavail * sv.f_frsize;
  if (need + need / 10 > avail)
    return emit_failure(FAIL_NO_SPACE, "%s needs %s and %s has %s free: free some space or choose a smaller workload", what,
                        shown_bytes(need), shown_path(target), shown_bytes(avail));
  return 0;
}

// --pause: the tree stays until a line (or the end) arrives on stdin, or a signal.
static void wait_for_line(void) {
  char c = 0;
  while (!g_stop && read(STDIN_FILENO, &c, 1) == 1 && c != '\n') {
  }
}

// The tree's `workload` line: what is written (the release's shape, or the user's tarball by name).
static void emit_tree_info(const char *shape, const char *source, int scaled, uint64_t files, uint64_t bytes, uint64_t dirs) {
  jbuf_t b;
  jb_begin(&b, "workload");
  jb_str(&b, "workload", "tree");
  jb_str(&b, "shape", shape);
  if (source) jb_str(&b, "source", source);
  jb_bool(&b, "scaled", scaled);
  jb_u64(&b, "files", files);
  jb_u64(&b, "bytes", bytes);
  jb_u64(&b, "dirs", dirs);
  jb_end_emit(&b);
}

// --tarball: tar(1) extracts into the open folder dir_fd: its working folder is set from the
// descriptor and the tarball is the already-open descriptor tar_fd (as /dev/fd/3), so neither is
// a path that anyone could redirect between passes. tar's stdout goes to stderr (stdout is the
// NDJSON channel); it dies with this process, and a stop signal stops it too. Returns 0, -errno,
// or 1 when tar itself failed (its message is on stderr already).
static int tar_extract(int tar_fd, int dir_fd, int *status) {
  fd_map_t fds[] = {{STDERR_FILENO, STDOUT_FILENO}, {tar_fd, 3}};
  child_opts_t co = {.cwd_fd = dir_fd, .fds = fds, .nfds = 2};
  char *argv[] = {"tar", "--extract", "--no-same-owner", "--file", "/dev/fd/3", NULL};
  pid_t pid;
  int rc = child_spawn(&pid, "tar", argv, &co);
  if (rc != 0) return -rc;
  int st = 0;
  while (waitpid(pid, &st, 0) < 0) {
    if (errno != EINTR) return -errno;
    if (g_stop) kill(pid, SIGTERM);
  }
  *status = st;
  return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : 1;
}

// Files and bytes under a folder (not timed: after the extraction).
static void count_tree(int dir_fd, uint64_t *files, uint64_t *bytes) {
  int fd = dup(dir_fd);
  DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
  if (!d) {
    if (fd >= 0) close(fd);
    return;
  }
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
    struct stat st;
    if (fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0) continue;
    if (S_ISDIR(st.st_mode)) {
      int sub = openat(dirfd(d), e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
      if (sub >= 0) {
        count_tree(sub, files, bytes);
        close(sub);
      }
    } else {
      (*files)++;
      if (S_ISREG(st.st_mode)) *bytes += (uint64_t)st.st_size;
    }
  }
  closedir(d);
}

/* What a path is when it is not a regular file, for "the tarball … is a FIFO" messages. */
static const char *file_kind(mode_t mode) {
  if (S_ISFIFO(mode)) return "it is a FIFO (named pipe), not a regular file";
  if (S_ISDIR(mode)) return "it is a folder, not a file";
  if (S_ISCHR(mode)) return "it is a character device, not a regular file";
  if (S_ISBLK(mode)) return "it is a block device, not a regular file";
  if (S_ISSOCK(mode)) return "it is a socket, not a regular file";
  return "not a regular file";
}

static int workload_tarball(const workload_opts_t *o) {
  workdir_t w = {.target_fd = -1, .fd = -1};
  struct stat st;
  // O_NONBLOCK: a FIFO (or a device) named as the tarball opens at once and is refused by what
  // fstat says it is; opened as a file it waited in open(2) for a writer, silently, until killed.
  int in = open(o->tarball, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  int stated = in >= 0 && fstat(in, &st) == 0;
  if (!stated || !S_ISREG(st.st_mode)) {
    int e = in < 0 ? errno : stated ? 0 : errno;
    if (in >= 0) close(in);
    return finish_workload(&w, emit_failure(e == ENOENT ? FAIL_TARGET_MISSING : FAIL_USAGE, "cannot use the tarball %s: %s: give a .tar, .tar.gz or .tar.xz file",
                                            o->tarball, e == 0 ? file_kind(st.st_mode) : strerror(e)));
  }
  // tar reads it as an ordinary file: blocking again (a regular file never waits either way).
  int fl = fcntl(in, F_GETFL);
  if (fl >= 0) fcntl(in, F_SETFL, fl & ~O_NONBLOCK);
  int rc = workdir_open(&w, o->target);
  if (rc == 0) emit_workload_hello(o->target, "tree", 1);
  int described = 0;
  for (unsigned pass = 0; rc == 0 && !g_stop && pass < o->warmup_passes + o->runs; pass++) {
    unsigned run = pass < o->warmup_passes ? 0 : pass - o->warmup_passes + 1;
    phase_msg_t m = {.workload = "tree", .phase = "write", .run = run, .spread_seconds = -1};
    if (mkdirat(w.fd, "t", 0755) != 0) {
      rc = fail_errno(errno, "creating the extraction folder in", o->target);
      break;
    }
    int status = 0;
    int into = openat(w.fd, "t", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (into < 0) {
      rc = fail_errno(errno, "opening the extraction folder in", o->target);
      break;
    }
    uint64_t t0 = now_ns();
    int e = tar_extract(in, into, &status);
    close(into);
    if (e == 0 && !g_stop) e = sync_folder(w.fd, &m.sync_seconds);
    m.seconds = seconds_since(t0);
    if (g_stop) break;
    if (e == 1) {
      // tar says why on stderr; here only which of our codes fits: a full disk, or the file.
      struct statvfs sv;
      int full = statvfs(o->target, &sv) == 0 && (uint64_t)sv.f_bavail * sv.f_frsize < (1u << 20);
      rc = emit_failure(full ? FAIL_NO_SPACE : FAIL_USAGE, "tar could not extract %s into %s (%s %d)%s", o->tarball, shown_path(o->target),
                        WIFEXITED(status) ? "exit" : "signal", WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status),
                        full ? ": the disk is full; free some space or use a smaller tarball" : ": tar said why on stderr; is it a tarball?");
      break;
    }
    if (e != 0) {
      rc = fail_errno(-e, "extracting the tarball in", o->target);
      break;
    }
    int t = openat(w.fd, "t", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (t >= 0) {
      count_tree(t, &m.files, &m.bytes);
      close(t);
    }
    if (!described) {
      const char *slash = strrchr(o->tarball, '/');
      emit_tree_info(slash ? slash + 1 : o->tarball, "tarball", 0, m.files, m.bytes, 0);
      described = 1;
    }
    emit_phase(&m);
    phase_msg_t del = {.workload = "tree", .phase = "delete", .run = run, .spread_seconds = -1, .files = m.files, .bytes = m.bytes};
    t0 = now_ns();
    e = remove_own_tree_at(w.fd, "t");
    if (e == 0 && !g_stop) e = sync_folder(w.fd, &del.sync_seconds);
    del.seconds = seconds_since(t0);
    if (e != 0) {
      rc = fail_errno(-e, "deleting the extracted tree in", o->target);
      break;
    }
    if (!g_stop) emit_phase(&del);
  }
  close(in);
  return finish_workload(&w, rc);
}

int workload_tree(const workload_opts_t *o) {
  if (o->tarball) return workload_tarball(o);
  uint64_t files = o->tree_files ? o->tree_files : TREE_SHAPE_FILES;
  uint64_t bytes = o->tree_bytes ? o->tree_bytes : TREE_SHAPE_BYTES;
  workdir_t w = {.target_fd = -1, .fd = -1};
  tree_plan_t p;
  int rc = tree_plan(&p, files, bytes);
  if (rc) return finish_workload(&w, rc);
  char *buf = malloc(CHUNK);
  if (!buf) {
    free(p.sizes);
    return finish_workload(&w, emit_failure(FAIL_INTERNAL, "cannot allocate the write buffer"));
  }
  rc = check_room(o->target, p.nbytes + p.nfiles * 4096, "the tree");
  if (rc == 0) rc = workdir_open(&w, o->target);
  if (rc == 0) {
    emit_workload_hello(o->target, "tree", 1);
    emit_tree_info(TREE_SHAPE_ID, NULL, files != TREE_SHAPE_FILES || bytes != TREE_SHAPE_BYTES, p.nfiles, p.nbytes, p.ndirs);
  }
  for (unsigned pass = 0; rc == 0 && !g_stop && pass < o->warmup_passes + o->runs; pass++) {
    unsigned run = pass < o->warmup_passes ? 0 : pass - o->warmup_passes + 1;
    phase_msg_t m = {.workload = "tree", .phase = "write", .run = run, .spread_seconds = -1};
    uint64_t t0 = now_ns();
    int e = tree_write(&p, w.fd, buf, &m.files, &m.bytes);
    if (e == 0 && !g_stop) e = sync_folder(w.fd, &m.sync_seconds);
    m.seconds = seconds_since(t0);
    if (e != 0) {
      rc = fail_errno(-e, "writing the tree in", o->target);
      break;
    }
    if (g_stop) break;
    emit_phase(&m);
    if (o->pause) wait_for_line();
    phase_msg_t del = {.workload = "tree", .phase = "delete", .run = run, .spread_seconds = -1, .bytes = m.bytes};
    t0 = now_ns();
    e = tree_delete(&p, w.fd, &del.files);
    if (e == 0 && !g_stop) e = sync_folder(w.fd, &del.sync_seconds);
    del.seconds = seconds_since(t0);
    if (e != 0) {
      rc = fail_errno(-e, "deleting the tree in", o->target);
      break;
    }
    if (!g_stop) emit_phase(&del);
  }
  free(buf);
  free(p.sizes);
  return finish_workload(&w, rc);
}

// ---------------------------------------------------------------------------------------------
// bigfile: one large file written like `cp` does (buffered), synced, then deleted.

int workload_bigfile(const workload_opts_t *o) {
  workdir_t w = {.target_fd = -1, .fd = -1};
  uint64_t size = o->size;
  struct statvfs sv;
  if (statvfs(o->target, &sv) == 0) {
    uint64_t avail = (uint64_t)sv.f_bavail * sv.f_frsize;
    uint64_t fits = avail > (64u << 20) ? (avail - (64u << 20)) / 10 * 9 : 0;
    fits -= fits % CHUNK;
    if (size > fits) {
      if (fits < (16u << 20))
        return finish_workload(&w, emit_failure(FAIL_NO_SPACE, "%s has %s free, too little for a big file: free some space",
                                                shown_path(o->target), shown_bytes(avail)));
      emit_warning("bigfile-shrunk", "the big file is %s, not %s: that is what fits in %s", shown_bytes(fits), shown_bytes(size),
                   shown_path(o->target));
      size = fits;
    }
  }
  char *buf = malloc(CHUNK);
  if (!buf) return finish_workload(&w, emit_failure(FAIL_INTERNAL, "cannot allocate the write buffer"));
  int rc = workdir_open(&w, o->target);
  if (rc == 0) {
    emit_workload_hello(o->target, "bigfile", 1);
    jbuf_t b;
    jb_begin(&b, "workload");
    jb_str(&b, "workload", "bigfile");
    jb_u64(&b, "files", 1);
    jb_u64(&b, "bytes", size);
    jb_end_emit(&b);
  }
  for (unsigned pass = 0; rc == 0 && !g_stop && pass < o->warmup_passes + o->runs; pass++) {
    unsigned run = pass < o->warmup_passes ? 0 : pass - o->warmup_passes + 1;
    phase_msg_t m = {.workload = "bigfile", .phase = "write", .run = run, .spread_seconds = -1, .files = 1};
    uint64_t t0 = now_ns();
    int e = write_file_at(w.fd, "big", size, TREE_SEED, buf, &m.bytes);
    if (e == 0 && !g_stop) e = sync_folder(w.fd, &m.sync_seconds);
    m.seconds = seconds_since(t0);
    if (e != 0) {
      rc = fail_errno(-e, "writing the big file in", o->target);
      break;
    }
    if (g_stop) break;
    emit_phase(&m);
    phase_msg_t del = {.workload = "bigfile", .phase = "delete", .run = run, .spread_seconds = -1, .files = 1, .bytes = size};
    t0 = now_ns();
    e = unlinkat(w.fd, "big", 0) == 0 ? 0 : -errno;
    if (e == 0) e = sync_folder(w.fd, &del.sync_seconds);
    del.seconds = seconds_since(t0);
    if (e != 0) {
      rc = fail_errno(-e, "deleting the big file in", o->target);
      break;
    }
    emit_phase(&del);
  }
  free(buf);
  return finish_workload(&w, rc);
}

// ---------------------------------------------------------------------------------------------
// app-start: N programs starting at once from a cold cache, each reading its own files.

typedef struct {
  unsigned count;
  uint64_t min, max;  // bytes
} app_part_t;

// A program's start-up, by what it reads: its binary, its shared libraries, many small
// resources (icons, locale, configuration). About 34 MiB (35.7 MB) a program on average, each size
// uniform over its range: 8 + 30 × 0.78 + 160 × 0.016 MiB.
static const app_part_t PROGRAM_MIX[] = {
    {1, 4u << 20, 12u << 20},    // the binary
    {30, 64u << 10, 1536u << 10},  // libraries
    {160, 1u << 10, 32u << 10},  // resources
};

typedef struct {
  unsigned count;
  uint64_t *sizes;
  unsigned *order;  // read order (shuffled: a program does not read its files in creation order)
  char dir[32];
  // per pass
  uint64_t start_ns, end_ns, bytes;
  int error;
  int dir_fd;
  struct start_gate *gate;
} app_reader_t;

// Every reader waits at the gate until all are ready, so the programs start at once.
typedef struct start_gate {
  pthread_mutex_t lock;
  pthread_cond_t open;
  int state;  // 0 closed, 1 go, -1 abandoned
} start_gate_t;

static int gate_wait(start_gate_t *g) {
  pthread_mutex_lock(&g->lock);
  while (g->state == 0) pthread_cond_wait(&g->open, &g->lock);
  int go = g->state > 0;
  pthread_mutex_unlock(&g->lock);
  return go;
}

static void gate_set(start_gate_t *g, int state) {
  pthread_mutex_lock(&g->lock);
  g->state = state;
  pthread_cond_broadcast(&g->open);
  pthread_mutex_unlock(&g->lock);
}

static void *app_read(void *arg) {
  app_reader_t *r = arg;
  char *buf = malloc(128u << 10);
  int go = gate_wait(r->gate);
  r->start_ns = now_ns();
  if (!go) {
    free(buf);
    r->end_ns = r->start_ns;
    return NULL;
  }
  r->bytes = 0;
  r->error = buf ? 0 : ENOMEM;
  char name[32];
  for (unsigned i = 0; i < r->count && !r->error && !g_stop; i++) {
    snprintf(name, sizeof name, "f%u", r->order[i]);
    int fd = openat(r->dir_fd, name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0) {
      r->error = errno;
      break;
    }
    ssize_t n;
    while ((n = read(fd, buf, 128u << 10)) > 0) r->bytes += (uint64_t)n;
    if (n < 0) r->error = errno;
    close(fd);
  }
  r->end_ns = now_ns();
  free(buf);
  return NULL;
}

// Empties the page cache (and, but for the last way, dentries and inodes): as root directly,
// else through the privileged helper, else only this workload's own pages (fadvise).
static const char *drop_caches(const workload_opts_t *o, app_reader_t *readers) {
  sync();
  if (geteuid() == 0) {
    int fd = open("/proc/sys/vm/drop_caches", O_WRONLY | O_CLOEXEC);
    if (fd >= 0 && write(fd, "3\n", 2) == 2) {
      close(fd);
      return "drop-caches";
    }
    if (fd >= 0) close(fd);
  } else if (o->helper) {
    pid_t pid;
    char *argv[] = {"pkexec", (char *)o->helper, "drop-caches", NULL};
    int status = 0;
    if (child_spawn(&pid, "pkexec", argv, NULL) == 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
        WEXITSTATUS(status) == 0)
      return "helper-drop-caches";
    emit_warning("cold-cache-partial", "the helper could not drop the caches (pkexec %s drop-caches); only this workload's file pages "
                 "were evicted", o->helper);
  }
  char name[32];
  for (unsigned i = 0; i < o->readers; i++)
    for (unsigned k = 0; k < readers[i].count; k++) {
      snprintf(name, sizeof name, "f%u", k);
      int fd = openat(readers[i].dir_fd, name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
      if (fd < 0) continue;
      posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
      close(fd);
    }
  return "fadvise";
}

int workload_app_start(const workload_opts_t *o) {
  workdir_t w = {.target_fd = -1, .fd = -1};
  int small = o->app_mix && strcmp(o->app_mix, "small") == 0;
  if (o->app_mix && !small && strcmp(o->app_mix, "program") != 0) {
    int rc = emit_failure(FAIL_USAGE, "--app-mix '%s' is unknown: use program or small (see " WORKER_NAME " --help)", o->app_mix);
    emit_done("error", rc);
    return rc;
  }
  unsigned nreaders = o->readers ? o->readers : 4;
  app_reader_t *readers = calloc(nreaders, sizeof *readers);
  char *buf = malloc(CHUNK);
  start_gate_t gate = {.lock = PTHREAD_MUTEX_INITIALIZER, .open = PTHREAD_COND_INITIALIZER};
  for (unsigned i = 0; readers && i < nreaders; i++) readers[i].dir_fd = -1;
  rng_t rng;
  rng_seed(&rng, APP_SEED);
  uint64_t total_files = 0, total_bytes = 0;
  int rc = readers && buf ? 0 : emit_failure(FAIL_INTERNAL, "cannot allocate the readers");
  for (unsigned i = 0; rc == 0 && i < nreaders; i++) {
    app_reader_t *r = &readers[i];
    r->gate = &gate;
    unsigned count = 0;
    if (small) count = o->app_files ? o->app_files : 200;
    else
      for (unsigned p = 0; p < sizeof PROGRAM_MIX / sizeof PROGRAM_MIX[0]; p++) count += PROGRAM_MIX[p].count;
    r->count = count;
    r->sizes = calloc(count, sizeof *r->sizes);
    r->order = calloc(count, sizeof *r->order);
    if (!r->sizes || !r->order) {
      rc = emit_failure(FAIL_INTERNAL, "cannot allocate the readers");
      break;
    }
    unsigned k = 0;
    if (small)
      for (; k < count; k++) r->sizes[k] = 4096;
    else
      for (unsigned p = 0; p < sizeof PROGRAM_MIX / sizeof PROGRAM_MIX[0]; p++)
        for (unsigned c = 0; c < PROGRAM_MIX[p].count; c++, k++)
          r->sizes[k] = PROGRAM_MIX[p].min + rng_below(&rng, PROGRAM_MIX[p].max - PROGRAM_MIX[p].min + 1);
    for (k = 0; k < count; k++) r->order[k] = k;
    for (k = count; k > 1; k--) {
      unsigned j = (unsigned)rng_below(&rng, k), t = r->order[k - 1];
      r->order[k - 1] = r->order[j];
      r->order[j] = t;
    }
    snprintf(r->dir, sizeof r->dir, "app%u", i);
    total_files += count;
    for (k = 0; k < count; k++) total_bytes += r->sizes[k];
  }
  if (rc == 0) rc = check_room(o->target, total_bytes + total_files * 4096, "the programs' files");
  if (rc == 0) rc = workdir_open(&w, o->target);
  if (rc == 0) {
    emit_workload_hello(o->target, "app-start", 1);
    jbuf_t b;
    jb_begin(&b, "workload");
    jb_str(&b, "workload", "app-start");
    jb_str(&b, "mix", small ? "small" : "program");
    jb_u64(&b, "readers", nreaders);
    jb_u64(&b, "files", total_files);
    jb_u64(&b, "bytes", total_bytes);
    jb_end_emit(&b);
  }
  // The programs are installed first (untimed), then started from a cold cache, all at once.
  char name[32];
  uint64_t unused = 0;
  for (unsigned i = 0; rc == 0 && i < nreaders && !g_stop; i++) {
    app_reader_t *r = &readers[i];
    if (mkdirat(w.fd, r->dir, 0755) != 0 || (r->dir_fd = openat(w.fd, r->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0) {
      rc = fail_errno(errno, "creating the programs' folders in", o->target);
      break;
    }
    for (unsigned k = 0; k < r->count && !g_stop; k++) {
      snprintf(name, sizeof name, "f%u", k);
      int e = write_file_at(r->dir_fd, name, r->sizes[k], APP_SEED ^ ((uint64_t)i << 32 | k), buf, &unused);
      if (e != 0) {
        rc = fail_errno(-e, "writing the programs' files in", o->target);
        break;
      }
    }
  }
  double ignored;
  if (rc == 0 && !g_stop) sync_folder(w.fd, &ignored);
  for (unsigned pass = 0; rc == 0 && !g_stop && pass < o->warmup_passes + o->runs; pass++) {
    unsigned run = pass < o->warmup_passes ? 0 : pass - o->warmup_passes + 1;
    const char *cold = drop_caches(o, readers);
    pthread_t *threads = calloc(nreaders, sizeof *threads);
    unsigned started = 0;
    gate_set(&gate, 0);
    for (; threads && started < nreaders; started++)
      if (pthread_create(&threads[started], NULL, app_read, &readers[started]) != 0) break;
    // Without every reader the start is not "all at once": the ones started go home.
    if (started < nreaders) rc = emit_failure(FAIL_INTERNAL, "cannot start %u reader threads", nreaders);
    gate_set(&gate, rc == 0 ? 1 : -1);
    for (unsigned i = 0; i < started; i++) pthread_join(threads[i], NULL);
    free(threads);
    if (rc) break;
    phase_msg_t m = {.workload = "app-start", .phase = "start", .run = run, .files = total_files, .cold = cold};
    uint64_t first = UINT64_MAX, last = 0, start = UINT64_MAX;
    for (unsigned i = 0; i < nreaders; i++) {
      if (readers[i].error && !rc) rc = fail_errno(readers[i].error, "reading the programs' files in", o->target);
      start = readers[i].start_ns < start ? readers[i].start_ns : start;
      first = readers[i].end_ns < first ? readers[i].end_ns : first;
      last = readers[i].end_ns > last ? readers[i].end_ns : last;
      m.bytes += readers[i].bytes;
    }
    if (rc || g_stop) break;
    m.seconds = (double)(last - start) / 1e9;
    m.spread_seconds = (double)(last - first) / 1e9;
    emit_phase(&m);
  }
  for (unsigned i = 0; readers && i < nreaders; i++) {
    if (readers[i].dir_fd >= 0) close(readers[i].dir_fd);
    free(readers[i].sizes);
    free(readers[i].order);
  }
  free(readers);
  free(buf);
  return finish_workload(&w, rc);
}
