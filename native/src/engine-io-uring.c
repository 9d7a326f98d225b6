// io_uring through raw system calls (no liburing): one ring per thread, the test file and the
// slot buffers registered with the ring, and one io_uring_enter per loop that both submits
// the freed slots and waits for the next completion. At QD1 that is one system call per I/O
// (kernel AIO needs two: io_submit + io_getevents), which is what decides a CPU-bound QD1
// figure. The structures come from <linux/io_uring.h> (linux-libc-dev, which libc6-dev pulls
// in); flags newer than Debian 12's headers are defined here, and the kernel's answer decides
// which are used.
#include <errno.h>
#include <linux/io_uring.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#include "engine.h"

#ifndef SYS_io_uring_setup
#define SYS_io_uring_setup 425
#define SYS_io_uring_enter 426
#define SYS_io_uring_register 427
#endif

typedef struct {
  int fd;
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
    fill_random(&t->rng, d->bufs[i], t->job->bs);
    iov[i] = (struct iovec){.iov_base = d->bufs[i], .iov_len = t->job->bs};
    d->free_slots[d->nfree++] = i;
  }
  // Registered buffers are pinned once instead of per I/O (most of the saving for 1 MiB
  // blocks); a registered file skips the file-table lookup and reference count per I/O.
  // Both are optimisations: where the kernel refuses (RLIMIT_MEMLOCK on older kernels), the
  // plain requests measure the same thing at a little more CPU.
  d->fixed_bufs = sys_register(d->fd, IORING_REGISTER_BUFFERS, iov, qd) == 0;
  free(iov);
  int fd = t->target->fd;
  d->fixed_file = sys_register(d->fd, IORING_REGISTER_FILES, &fd, 1) == 0;
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
  sqe->fd = d->fixed_file ? 0 : t->target->fd;
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
    int submitting = !g_stop && !failed && now < t->deadline_ns;
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
        job_complete(t, j->bs, is_write, completed_at - d->submitted_at[slot]);
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
  if (d->bufs)
    for (unsigned i = 0; i < t->job->qd; i++) free(d->bufs[i]);
  free(d->bufs);
  free(d->submitted_at);
  free(d->offsets);
  free(d->free_slots);
  free(d);
  t->engine_data = NULL;
}

// A kernel built without io_uring answers ENOSYS; kernel.io_uring_disabled=2 (or =1 for a
// user outside io_uring_group) answers EPERM; a seccomp policy (containers) either.
static int uring_probe(void) {
  struct io_uring_params p;
  memset(&p, 0, sizeof p);
  long fd = sys_setup(1, &p);
  if (fd < 0) return errno;
  close((int)fd);
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
