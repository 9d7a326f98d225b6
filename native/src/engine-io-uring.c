// io_uring through raw system calls (no liburing): one ring per thread, the test file and the
// slot buffers registered with the ring, and one io_uring_enter per loop that both submits
// the freed slots and waits for the next completion. At QD1 that is one system call per I/O
// (kernel AIO needs two: io_submit + io_getevents), which is what decides a CPU-bound QD1
// figure. The structures come from <linux/io_uring.h> (linux-libc-dev, which libc6-dev pulls
// in); flags newer than Debian 12's headers are defined here, and the kernel's answer decides
// which are used.
#include <errno.h>
#include <fcntl.h>
#include <linux/io_uring.h>
#include <limits.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#include "engine.h"
#include "ndjson.h"

#ifndef SYS_io_uring_setup
#define SYS_io_uring_setup 425
#define SYS_io_uring_enter 426
#define SYS_io_uring_register 427
#endif

typedef struct {
  int fd;
  int file_fd;  // the target, opened again for this ring (see uring_init)
  // Submission ring: the kernel reads [head, tail); the array maps ring entries to SQEs
  // (identity here: SQE i always sits at ring position i & mask).
  _Atomic unsigned *sq_head, *sq_tail;
  unsigned sq_mask;
  unsigned *sq_array;
  struct io_uring_sqe *sqes;
  unsigned sq_local_tail;  // entries written but not yet published to the kernel
  // Completion ring.
  _Atomic unsigned *cq_head, *cq_tail;
  unsigned cq_mask;
  struct io_uring_cqe *cqes;
  void *sq_map, *cq_map;
  size_t sq_map_len, cq_map_len, sqes_len;
  int fixed_file, fixed_bufs;
  void **bufs;
  uint64_t *submitted_at, *offsets;
  unsigned *free_slots;
  unsigned nfree;
} uring_data_t;

static long sys_setup(unsigned entries, struct io_uring_params *p) { return syscall(SYS_io_uring_setup, entries, p); }
static long sys_enter(int fd, unsigned submit, unsigned wait, unsigned flags) {
  return syscall(SYS_io_uring_enter, fd, submit, wait, flags, NULL, 0);
}
static long sys_register(int fd, unsigned op, const void *arg, unsigned n) {
  return syscall(SYS_io_uring_register, fd, op, arg, n);
}

static void warn_unregistered_buffers(int e, unsigned long long bytes) {
  static int warned;  // every thread's ring tries; one warning per process
  if (__atomic_exchange_n(&warned, 1, __ATOMIC_RELAXED)) return;
  struct rlimit lim;
  char limit[64] = "unknown";
  if (getrlimit(RLIMIT_MEMLOCK, &lim) == 0)
    lim.rlim_cur == RLIM_INFINITY ? snprintf(limit, sizeof limit, "unlimited")
                                  : snprintf(limit, sizeof limit, "%llu KiB", (unsigned long long)lim.rlim_cur / 1024);
  emit_warning("io-uring-buffers-unregistered",
               "io_uring could not register its %llu KiB of buffers per thread (%s; locked-memory limit %s): each I/O "
               "pins its buffer instead, which costs CPU per I/O and can lower the figure on a fast device; raise "
               "the limit (ulimit -l, or LimitMEMLOCK= for a service) for the fastest figures",
               bytes / 1024, strerror(e), limit);
}

// Flags tried in order: the cheapest completion path the kernel accepts. DEFER_TASKRUN (6.1)
// runs completion work only when this thread asks for events, never as an interrupting
// signal; SINGLE_ISSUER (6.0) lets the kernel skip locking since each ring has one thread.
// COOP_TASKRUN (5.19) is the lighter fallback. Polling modes (SQPOLL, IOPOLL) stay off: SQPOLL
// burns a core in a kernel thread the rusage figures would not show as the worker's, and
// IOPOLL needs poll queues most drivers do not have.
#ifndef IORING_SETUP_COOP_TASKRUN
#define IORING_SETUP_COOP_TASKRUN (1U << 8)
#endif
#ifndef IORING_SETUP_SINGLE_ISSUER
#define IORING_SETUP_SINGLE_ISSUER (1U << 12)
#endif
#ifndef IORING_SETUP_DEFER_TASKRUN
#define IORING_SETUP_DEFER_TASKRUN (1U << 13)
#endif
static const unsigned SETUP_FLAGS[] = {
    IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN,
    IORING_SETUP_COOP_TASKRUN,
    0,
};

static void uring_cleanup(thread_ctx_t *t);

static int map_rings(uring_data_t *d, const struct io_uring_params *p) {
  d->sq_map_len = p->sq_off.array + p->sq_entries * sizeof(unsigned);
  d->cq_map_len = p->cq_off.cqes + p->cq_entries * sizeof(struct io_uring_cqe);
  int single = (p->features & IORING_FEAT_SINGLE_MMAP) != 0;
  if (single && d->cq_map_len > d->sq_map_len) d->sq_map_len = d->cq_map_len;
  d->sq_map = mmap(NULL, d->sq_map_len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, d->fd, IORING_OFF_SQ_RING);
  if (d->sq_map == MAP_FAILED) return d->sq_map = NULL, errno;
  if (single) {
    d->cq_map = d->sq_map;
  } else {
    d->cq_map = mmap(NULL, d->cq_map_len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, d->fd, IORING_OFF_CQ_RING);
    if (d->cq_map == MAP_FAILED) return d->cq_map = NULL, errno;
  }
  d->sqes_len = p->sq_entries * sizeof(struct io_uring_sqe);
  d->sqes = mmap(NULL, d->sqes_len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, d->fd, IORING_OFF_SQES);
  if (d->sqes == MAP_FAILED) return d->sqes = NULL, errno;
  char *sq = d->sq_map, *cq = d->cq_map;
  d->sq_head = (_Atomic unsigned *)(sq + p->sq_off.head);
  d->sq_tail = (_Atomic unsigned *)(sq + p->sq_off.tail);
  d->sq_mask = *(unsigned *)(sq + p->sq_off.ring_mask);
  d->sq_array = (unsigned *)(sq + p->sq_off.array);
  for (unsigned i = 0; i < p->sq_entries; i++) d->sq_array[i] = i;
  d->sq_local_tail = atomic_load_explicit(d->sq_tail, memory_order_relaxed);
  d->cq_head = (_Atomic unsigned *)(cq + p->cq_off.head);
  d->cq_tail = (_Atomic unsigned *)(cq + p->cq_off.tail);
  d->cq_mask = *(unsigned *)(cq + p->cq_off.ring_mask);
  d->cqes = (struct io_uring_cqe *)(cq + p->cq_off.cqes);
  return 0;
}

static int uring_init(thread_ctx_t *t) {
  unsigned qd = t->job->qd;
  uring_data_t *d = calloc(1, sizeof *d);
  if (!d) return ENOMEM;
  d->fd = -1;
  d->file_fd = -1;
  t->engine_data = d;
  struct io_uring_params p;
  int e = 0;
  for (unsigned i = 0; i < sizeof SETUP_FLAGS / sizeof SETUP_FLAGS[0]; i++) {
    memset(&p, 0, sizeof p);
    p.flags = SETUP_FLAGS[i];
    long fd = sys_setup(qd, &p);
    if (fd >= 0) {
      d->fd = (int)fd;
      break;
    }
    e = errno;
    if (e != EINVAL) break;  // EINVAL: flags too new for this kernel; anything else is final
  }
  if (d->fd < 0) return uring_cleanup(t), e;
  if ((e = map_rings(d, &p)) != 0) return uring_cleanup(t), e;

  d->bufs = calloc(qd, sizeof *d->bufs);
  d->submitted_at = calloc(qd, sizeof *d->submitted_at);
  d->offsets = calloc(qd, sizeof *d->offsets);
  d->free_slots = calloc(qd, sizeof *d->free_slots);
  struct iovec *iov = calloc(qd, sizeof *iov);
  if (!d->bufs || !d->submitted_at || !d->offsets || !d->free_slots || !iov) return free(iov), uring_cleanup(t), ENOMEM;
  for (unsigned i = 0; i < qd; i++) {
    if (posix_memalign(&d->bufs[i], t->target->align, t->job->bs) != 0) return free(iov), uring_cleanup(t), ENOMEM;
    if (t->job->pattern->may_write) fill_random(&t->rng, d->bufs[i], t->job->bs);  // reads need no data
    iov[i] = (struct iovec){.iov_base = d->bufs[i], .iov_len = t->job->bs};
    d->free_slots[d->nfree++] = i;
  }
  // Registered buffers are pinned once instead of per I/O (most of the saving for 1 MiB
  // blocks); a registered file skips the file-table lookup and reference count per I/O.
  // Both are optimisations: where the kernel refuses (registered buffers count against
  // RLIMIT_MEMLOCK unless the process has CAP_IPC_LOCK), the plain requests measure the same
  // thing at more CPU per I/O, which on a fast device can lower the figure: said once per run.
  d->fixed_bufs = sys_register(d->fd, IORING_REGISTER_BUFFERS, iov, qd) == 0;
  if (!d->fixed_bufs) warn_unregistered_buffers(errno, qd * (unsigned long long)t->job->bs);
  free(iov);
  // The ring works on its own open file description of the target. A ring outlives a killed
  // process for a moment (the kernel tears it down in the background) and keeps its files
  // open meanwhile; on the locked description that would keep the test file's flock held,
  // and the next run would take a SIGKILLed run's file for a live one.
  char self[64];
  snprintf(self, sizeof self, "/proc/self/fd/%d", t->target->fd);
  int flags = fcntl(t->target->fd, F_GETFL);
  if (flags >= 0) d->file_fd = open(self, (flags & (O_ACCMODE | O_DIRECT)) | O_CLOEXEC);
  d->fixed_file = d->file_fd >= 0 && sys_register(d->fd, IORING_REGISTER_FILES, &d->file_fd, 1) == 0;
  return 0;
}

static void queue_slot(thread_ctx_t *t, uring_data_t *d, unsigned slot, uint64_t now) {
  const job_t *j = t->job;
  uint64_t off;
  int is_write;
  job_next_io(t, &off, &is_write);
  if (is_write) job_scramble(t, d->bufs[slot], j->bs);
  struct io_uring_sqe *sqe = &d->sqes[d->sq_local_tail & d->sq_mask];
  memset(sqe, 0, sizeof *sqe);
  sqe->opcode = d->fixed_bufs ? (is_write ? IORING_OP_WRITE_FIXED : IORING_OP_READ_FIXED)
                              : (is_write ? IORING_OP_WRITE : IORING_OP_READ);
  sqe->fd = d->fixed_file ? 0 : d->file_fd >= 0 ? d->file_fd : t->target->fd;
  sqe->flags = d->fixed_file ? IOSQE_FIXED_FILE : 0;
  sqe->off = off;
  sqe->addr = (uint64_t)(uintptr_t)d->bufs[slot];
  sqe->len = j->bs;
  sqe->buf_index = (uint16_t)(d->fixed_bufs ? slot : 0);
  // The direction rides in the user data, so a completion needs nothing but the CQE.
  sqe->user_data = (uint64_t)slot << 1 | (uint64_t)is_write;
  d->submitted_at[slot] = now;
  d->offsets[slot] = off;
  d->sq_local_tail++;
}

static int uring_run(thread_ctx_t *t) {
  uring_data_t *d = t->engine_data;
  const job_t *j = t->job;
  unsigned inflight = 0;  // queued in the ring or in the kernel
  unsigned pending = 0;   // published in the ring, not yet consumed by the kernel
  int failed = 0;
  for (;;) {
    uint64_t now = now_ns();
    int submitting = !g_stop && !failed && job_submitting(t, now);
    // Every free slot goes into this call: at QD1 that is the one I/O just completed; at
    // depth, the few that completed since the last call, so the queue stays full without
    // the plugged waves a large batch makes.
    unsigned queued = 0;
    while (submitting && d->nfree > 0) {
      queue_slot(t, d, d->free_slots[--d->nfree], now);
      queued++;
    }
    if (queued) atomic_store_explicit(d->sq_tail, d->sq_local_tail, memory_order_release);
    pending += queued;
    inflight += queued;
    if (inflight == 0) break;
    unsigned head = atomic_load_explicit(d->cq_head, memory_order_relaxed);
    // Wait for one completion unless some are already there to reap. With DEFER_TASKRUN,
    // completions are only posted inside a waiting call, so the ring cannot overflow.
    unsigned wait = atomic_load_explicit(d->cq_tail, memory_order_acquire) == head;
    if (pending || wait) {
      long rc = sys_enter(d->fd, pending, wait, wait ? IORING_ENTER_GETEVENTS : 0);
      if (rc >= 0) {
        pending -= (unsigned)rc;  // what the kernel did not take stays in the ring for the next call
      } else if (errno != EINTR && errno != EAGAIN && errno != EBUSY) {
        t->err = errno;
        return t->err;  // the ring is unusable; closing it in cleanup cancels the rest
      }
    }
    uint64_t completed_at = now_ns();
    unsigned tail = atomic_load_explicit(d->cq_tail, memory_order_acquire);
    for (; head != tail; head++) {
      const struct io_uring_cqe *cqe = &d->cqes[head & d->cq_mask];
      unsigned slot = (unsigned)(cqe->user_data >> 1);
      int is_write = (int)(cqe->user_data & 1);
      if (cqe->res != (int32_t)j->bs) {
        if (!t->err) {
          t->err = cqe->res < 0 ? -cqe->res : EIO;
          t->err_offset = d->offsets[slot];
        }
        failed = 1;
      } else {
        job_complete(t, j->bs, is_write, completed_at - d->submitted_at[slot], completed_at);
      }
      d->free_slots[d->nfree++] = slot;
      inflight--;
    }
    atomic_store_explicit(d->cq_head, head, memory_order_release);
  }
  return t->err;
}

static void uring_cleanup(thread_ctx_t *t) {
  uring_data_t *d = t->engine_data;
  if (!d) return;
  if (d->sqes) munmap(d->sqes, d->sqes_len);
  if (d->cq_map && d->cq_map != d->sq_map) munmap(d->cq_map, d->cq_map_len);
  if (d->sq_map) munmap(d->sq_map, d->sq_map_len);
  if (d->fd >= 0) close(d->fd);  // cancels and waits for anything still in flight
  if (d->file_fd >= 0) close(d->file_fd);
  if (d->bufs)
    for (unsigned i = 0; i < t->job->qd; i++) free(d->bufs[i]);
  free(d->bufs);
  free(d->submitted_at);
  free(d->offsets);
  free(d->free_slots);
  free(d);
  t->engine_data = NULL;
}

// blk-throttle (cgroup v1 blkio.throttle.*, v2 io.max) charges an io_uring read twice, its
// non-blocking first attempt and the blocking retry: on a raw loop device capped at 40 MB/s,
// this engine and fio's io_uring both read 1 MiB blocks at 20 MB/s, AIO (and io_uring with
// every request forced async) at 40. (Through ext4 on it, fio's io_uring read the cap.) Under such a limit io_uring would measure the kernel's
// accounting, not the device, so the probe declines it. Does any cgroup of this process,
// up to the root, limit device `dev` (or the disk holding it, for a partition)?
static int limit_in_file(const char *path, const char *const devs[2], int v2) {
  FILE *f = fopen(path, "r");
  if (!f) return 0;
  char line[512];
  int found = 0;
  while (!found && fgets(line, sizeof line, f)) {
    for (int i = 0; i < 2 && devs[i] && !found; i++) {
      size_t n = strlen(devs[i]);
      if (strncmp(line, devs[i], n) != 0 || line[n] != ' ') continue;
      if (!v2) {
        found = 1;  // v1: "8:16 40000000"; a removed limit disappears from the file
        continue;
      }
      // v2: "8:16 rbps=max wbps=40000000 riops=max wiops=max": a limit is any value not "max"
      char *save = NULL;
      for (char *kv = strtok_r(line + n, " \n", &save); kv; kv = strtok_r(NULL, " \n", &save)) {
        const char *eq = strchr(kv, '=');
        if (eq && strcmp(eq + 1, "max") != 0) found = 1;
      }
    }
  }
  fclose(f);
  return found;
}

static int cgroup_limits_device(const char *const devs[2]) {
  FILE *f = fopen("/proc/self/cgroup", "r");
  if (!f) return 0;
  static const char *V1_FILES[] = {"blkio.throttle.read_bps_device", "blkio.throttle.write_bps_device",
                                   "blkio.throttle.read_iops_device", "blkio.throttle.write_iops_device"};
  char line[1024];
  int limited = 0;
  while (!limited && fgets(line, sizeof line, f)) {
    line[strcspn(line, "\n")] = 0;
    // "7:blkio:/some/group" (v1) or "0::/some/group" (v2)
    char *c1 = strchr(line, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
    if (!c2) continue;
    *c2 = 0;
    const char *controllers = c1 + 1, *group = c2 + 1;
    int v2 = *controllers == 0;
    if (!v2 && !strstr(controllers, "blkio")) continue;
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s%s", v2 ? "/sys/fs/cgroup" : "/sys/fs/cgroup/blkio", group);
    for (;;) {
      char path[PATH_MAX + 64];
      if (v2) {
        snprintf(path, sizeof path, "%s/io.max", dir);
        limited |= limit_in_file(path, devs, 1);
      } else {
        for (unsigned i = 0; i < 4; i++) {
          snprintf(path, sizeof path, "%s/%s", dir, V1_FILES[i]);
          limited |= limit_in_file(path, devs, 0);
        }
      }
      char *slash = strrchr(dir, '/');
      if (limited || !slash || strcmp(dir, v2 ? "/sys/fs/cgroup" : "/sys/fs/cgroup/blkio") == 0) break;
      *slash = 0;  // the parent group: limits are hierarchical
    }
  }
  fclose(f);
  return limited;
}

static int target_io_limited(const target_t *target) {
  struct stat st;
  if (fstat(target->fd, &st) != 0) return 0;
  dev_t dev = S_ISBLK(st.st_mode) ? st.st_rdev : st.st_dev;
  char self[32], disk[32] = "", path[128];
  snprintf(self, sizeof self, "%u:%u", major(dev), minor(dev));
  // A partition's limits may be set on its whole disk: /sys/dev/block/M:m/../dev.
  snprintf(path, sizeof path, "/sys/dev/block/%s/partition", self);
  if (access(path, F_OK) == 0) {
    snprintf(path, sizeof path, "/sys/dev/block/%s/../dev", self);
    FILE *f = fopen(path, "r");
    if (f) {
      if (fgets(disk, sizeof disk, f)) disk[strcspn(disk, "\n")] = 0;
      fclose(f);
    }
  }
  const char *const devs[2] = {self, disk[0] ? disk : NULL};
  return cgroup_limits_device(devs);
}

// A kernel built without io_uring answers ENOSYS; kernel.io_uring_disabled=2 (or =1 for a
// user outside io_uring_group) answers EPERM; a seccomp policy (containers) either.
static int uring_probe(const target_t *target, char *why, size_t why_len) {
  struct io_uring_params p;
  memset(&p, 0, sizeof p);
  long fd = sys_setup(1, &p);
  if (fd < 0) {
    int e = errno;
    snprintf(why, why_len, "%s%s", strerror(e),
             e == EPERM ? ": kernel.io_uring_disabled or a seccomp policy forbids it" : e == ENOSYS ? ": this kernel has no io_uring" : "");
    return e;
  }
  close((int)fd);
  if (target_io_limited(target)) {
    snprintf(why, why_len, "a cgroup I/O limit (blkio.throttle/io.max) is set on this device, and it charges io_uring's requests twice");
    return EPERM;
  }
  return 0;
}

const io_engine_t ENGINE_IO_URING = {
    .name = "io_uring",
    .help = "io_uring with O_DIRECT: a real queue depth, one system call per I/O at QD1 (default)",
    .probe = uring_probe,
    .fallback = &ENGINE_AIO,
    .init = uring_init,
    .run = uring_run,
    .cleanup = uring_cleanup,
};
