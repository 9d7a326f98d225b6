#include "sustained.h"

#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "engine.h"
#include "ndjson.h"
#include "target.h"
#include "util.h"

typedef struct {
  int fd;
  uint64_t base_len;        // the stream covers [0, base_len)
  uint64_t block;
  _Atomic uint64_t next;    // the next offset to take: one sequential stream shared by the threads
  _Atomic uint64_t done;    // bytes completed
  _Atomic uint64_t ios;
  _Atomic uint64_t lat_sum_ns, lat_max_ns;
  _Atomic uint64_t last_done_ns;  // when the latest write completed
  _Atomic int err;          // errno of the first failed write
  _Atomic uint64_t err_offset;
} stream_t;

typedef struct {
  stream_t *s;
  void *buf;
  rng_t rng;
} writer_t;

static void atomic_max(_Atomic uint64_t *v, uint64_t x) {
  uint64_t cur = atomic_load(v);
  while (x > cur && !atomic_compare_exchange_weak(v, &cur, x)) {
  }
}

// Every 4 KiB of the block gets fresh random bytes at its start, so no two writes are alike:
// a drive that compresses or deduplicates cannot make its cache last longer than the user's
// data would.
static void scramble(writer_t *w, uint64_t len) {
  for (uint64_t at = 0; at + 16 <= len; at += 4096) {
    uint64_t *p = (uint64_t *)((char *)w->buf + at);
    p[0] = rng_next(&w->rng);
    p[1] = rng_next(&w->rng);
  }
}

static void *writer_main(void *arg) {
  writer_t *w = arg;
  stream_t *s = w->s;
  while (!g_stop && atomic_load(&s->err) == 0) {
    uint64_t off = atomic_fetch_add(&s->next, s->block);
    if (off >= s->base_len) break;
    uint64_t len = s->base_len - off < s->block ? s->base_len - off : s->block;
    scramble(w, len);
    uint64_t t0 = now_ns();
    ssize_t n = pwrite(s->fd, w->buf, len, (off_t)off);
    uint64_t t1 = now_ns();
    if (n != (ssize_t)len) {
      int expected = 0;
      int e = n < 0 ? errno : EIO;
      if (atomic_compare_exchange_strong(&s->err, &expected, e)) atomic_store(&s->err_offset, off);
      break;
    }
    atomic_fetch_add(&s->done, len);
    atomic_fetch_add(&s->ios, 1);
    atomic_fetch_add(&s->lat_sum_ns, t1 - t0);
    atomic_max(&s->lat_max_ns, t1 - t0);
    atomic_max(&s->last_done_ns, t1);
  }
  return NULL;
}

// The process's CPU time (every writer thread's), ns.
static void cpu_ns(uint64_t *user, uint64_t *sys) {
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  *user = (uint64_t)ru.ru_utime.tv_sec * 1000000000ull + (uint64_t)ru.ru_utime.tv_usec * 1000ull;
  *sys = (uint64_t)ru.ru_stime.tv_sec * 1000000000ull + (uint64_t)ru.ru_stime.tv_usec * 1000ull;
}

static void sleep_ms(unsigned ms) {
  struct timespec ts = {.tv_sec = ms / 1000, .tv_nsec = (long)(ms % 1000) * 1000000L};
  nanosleep(&ts, NULL);
}

// The time this worker's threads spent runnable but waiting for a CPU, ns (the second field of
// each /proc/self/task/TID/schedstat); -1 when the kernel does not keep it (no CONFIG_SCHED_INFO).
// Per interval it tells whether other processes took the CPU from the writer: a fall of the
// speed that coincides with it may be the machine's, not the drive's (issue 40 item 2).
static int64_t cpu_wait_ns(void) {
  DIR *d = opendir("/proc/self/task");
  if (!d) return -1;
  int64_t sum = 0;
  int found = 0;
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    if (e->d_name[0] == '.') continue;
    char path[64];
    snprintf(path, sizeof path, "/proc/self/task/%.20s/schedstat", e->d_name);
    FILE *f = fopen(path, "re");
    if (!f) continue;  // a thread that ended meanwhile
    unsigned long long run, wait;
    if (fscanf(f, "%llu %llu", &run, &wait) == 2) {
      sum += (int64_t)wait;
      found = 1;
    }
    fclose(f);
  }
  closedir(d);
  return found ? sum : -1;
}

static void emit_sample(const char *phase, uint64_t t_ns, uint64_t bytes, uint64_t interval_bytes, uint64_t interval_ns, int64_t *wait_last) {
  int64_t wait = cpu_wait_ns();
  int64_t waited = wait >= 0 && *wait_last >= 0 && wait >= *wait_last ? wait - *wait_last : -1;
  *wait_last = wait;
  jbuf_t b;
  jb_begin(&b, "sustained-sample");
  jb_str(&b, "phase", phase);
  jb_u64(&b, "t_ms", t_ns / 1000000ull);
  jb_u64(&b, "bytes", bytes);
  jb_u64(&b, "interval_bytes", interval_bytes);
  jb_u64(&b, "interval_ns", interval_ns);
  if (waited >= 0) jb_u64(&b, "cpu_wait_ns", (uint64_t)waited);
  jb_end_emit(&b);
}

// One stream: `depth` writer threads, the main thread sampling. `before` and `total` place its
// bytes in the whole verb's progress. Returns 0, or an EXIT_* code after an error line.
static int run_stream(const sustained_opts_t *o, target_t *t, void **bufs, const char *phase, uint64_t len, uint64_t rest_ns,
                      uint64_t before, uint64_t total) {
  stream_t s;
  memset(&s, 0, sizeof s);
  s.fd = t->fd;
  s.base_len = len;
  s.block = o->block;
  writer_t w[64];
  pthread_t th[64];
  unsigned started = 0;
  uint64_t user0, sys0;
  cpu_ns(&user0, &sys0);
  uint64_t t0 = now_ns();
  atomic_store(&s.last_done_ns, t0);
  for (unsigned i = 0; i < o->depth; i++) {
    w[i] = (writer_t){.s = &s, .buf = bufs[i]};
    rng_seed(&w[i].rng, o->seed + i * 0x9e3779b97f4a7c15ull + (uint64_t)(phase[0]));
    if (pthread_create(&th[i], NULL, writer_main, &w[i]) != 0) break;
    started++;
  }
  if (started == 0) return emit_failure(FAIL_INTERNAL, "sustained: cannot start a writer thread: %s", strerror(errno));
  uint64_t last_t = t0, last_bytes = 0;
  int64_t wait_last = cpu_wait_ns();
  unsigned tick = o->sample_ms ? o->sample_ms : 500;
  for (;;) {
    sleep_ms(tick < 50 ? tick : 50);
    uint64_t now = now_ns();
    uint64_t done = atomic_load(&s.done);
    int finished = done >= len || atomic_load(&s.err) != 0 || g_stop;
    if (!finished && now - last_t < (uint64_t)tick * 1000000ull) continue;
    if (finished) break;
    if (o->sample_ms) emit_sample(phase, now - t0, done, done - last_bytes, now - last_t, &wait_last);
    emit_byte_progress("measure", 1, before + done, total);
    last_t = now;
    last_bytes = done;
  }
  for (unsigned i = 0; i < started; i++) pthread_join(th[i], NULL);
  // The data must be on the drive, not in its volatile cache, before the stream's time ends: the
  // flush is the stream's last interval's cost.
  int sync_err = fdatasync(t->fd) != 0 ? errno : 0;
  uint64_t end = now_ns();
  uint64_t done = atomic_load(&s.done);
  if (o->sample_ms && end > last_t) emit_sample(phase, end - t0, done, done - last_bytes, end - last_t, &wait_last);
  uint64_t ios = atomic_load(&s.ios);
  uint64_t user1, sys1;
  cpu_ns(&user1, &sys1);
  jbuf_t b;
  jb_begin(&b, "sustained-phase");
  jb_str(&b, "phase", phase);
  jb_u64(&b, "bytes", done);
  jb_u64(&b, "planned_bytes", len);
  jb_u64(&b, "elapsed_ns", end - t0);
  jb_u64(&b, "ios", ios);
  jb_u64(&b, "block", o->block);
  jb_u64(&b, "depth", started);
  jb_u64(&b, "lat_mean_ns", ios ? atomic_load(&s.lat_sum_ns) / ios : 0);
  jb_u64(&b, "lat_max_ns", atomic_load(&s.lat_max_ns));
  jb_u64(&b, "rest_ns", rest_ns);
  jb_u64(&b, "user_ns", user1 - user0);
  jb_u64(&b, "sys_ns", sys1 - sys0);
  jb_bool(&b, "complete", done >= len);
  jb_end_emit(&b);
  emit_byte_progress("measure", 1, before + done, total);
  int e = atomic_load(&s.err);
  if (e)
    return emit_failure(e == ENOSPC ? FAIL_SPAN_NO_SPACE : FAIL_IO_ERROR, "sustained: a write at byte %llu failed: %s%s",
                        (unsigned long long)atomic_load(&s.err_offset), strerror(e),
                        e == ENOSPC ? ". The filesystem filled up: choose a smaller span" : "");
  if (sync_err) return emit_failure(FAIL_IO_ERROR, "sustained: flushing the test file failed: %s", strerror(sync_err));
  return 0;
}

static void emit_hello(const sustained_opts_t *o, const target_t *t) {
  jbuf_t b;
  jb_begin(&b, "hello");
  jb_str(&b, "worker", WORKER_NAME);
  jb_str(&b, "version", WORKER_VERSION);
  jb_i64(&b, "pid", getpid());
  jb_str(&b, "engine", "psync");
  jb_str(&b, "target", o->target);
  jb_str(&b, "kind", t->is_blockdev ? "block-device" : "folder");
  jb_str(&b, "fs", t->fs_type);
  jb_str(&b, "file", t->file_path[0] ? t->file_path : NULL);
  jb_u64(&b, "size", t->size);
  jb_bool(&b, "direct", t->direct);
  jb_u64(&b, "jobs", 1);
  jb_end_emit(&b);
}

int sustained_write(const sustained_opts_t *o) {
  if (o->block % 4096 != 0) {
    int rc = emit_failure(FAIL_USAGE, "--block %llu is not a multiple of 4096 (see " WORKER_NAME " --help)", (unsigned long long)o->block);
    emit_done("error", rc);
    return rc;
  }
  if (o->recovery > o->size) {
    int rc = emit_failure(FAIL_USAGE, "--recovery-size %s is more than --size %s: the recovery stream rewrites the same file",
                          shown_bytes(o->recovery), shown_bytes(o->size));
    emit_done("error", rc);
    return rc;
  }
  sweep_stale_files(o->target);
  target_request_t req = {.size = o->size, .needs_write = 1};
  target_t t;
  int rc = target_open(&t, o->target, &req);
  if (rc == 0 && t.is_blockdev)
    rc = emit_failure(FAIL_WRITE_ON_BLOCK_DEVICE, "sustained writes a test file: give a folder on the disk, not the device %s",
                      shown_path(o->target));
  if (rc) {
    target_close(&t);
    return emit_end(rc, 0, "nothing was written");
  }
  emit_hello(o, &t);
  void *bufs[64] = {0};
  for (unsigned i = 0; i < o->depth && rc == 0; i++) {
    if (posix_memalign(&bufs[i], 4096, o->block) != 0) {
      rc = emit_failure(FAIL_INTERNAL, "sustained: cannot allocate %s for a write buffer", shown_bytes(o->block));
      break;
    }
    rng_t r;
    rng_seed(&r, o->seed ^ (0xa5a5a5a5ull + i));
    fill_random(&r, bufs[i], o->block);
  }
  uint64_t len = t.size;  // the file's, whole MiB
  uint64_t recovery = o->recovery > len ? len : o->recovery;
  uint64_t total = len + recovery;
  if (rc == 0) rc = run_stream(o, &t, bufs, "fill", len, 0, 0, total);
  if (rc == 0 && !g_stop && recovery > 0) {
    uint64_t idle_from = now_ns();
    uint64_t until = idle_from + (uint64_t)(o->rest * 1e9);
    while (!g_stop && now_ns() < until) {
      sleep_ms(100);
      emit_byte_progress("measure", 1, len, total);
    }
    if (!g_stop) rc = run_stream(o, &t, bufs, "recovery", recovery, now_ns() - idle_from, len, total);
  }
  for (unsigned i = 0; i < o->depth; i++) free(bufs[i]);
  target_close(&t);
  return emit_end(rc, g_stop, "the test file was removed");
}
