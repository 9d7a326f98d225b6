// A job is one test: an access pattern with block size, queue depth and thread count.
// The worker knows nothing of preset names; the orchestrator builds jobs from its presets.
#ifndef DD_JOB_H
#define DD_JOB_H

#include <stdatomic.h>
#include <stdint.h>

#include "histogram.h"
#include "target.h"
#include "util.h"

typedef enum { RW_READ, RW_WRITE, RW_RANDREAD, RW_RANDWRITE, RW_RANDRW, RW_SEEKS } rw_t;

typedef struct {
  const char *name;   // as in fio's rw=, plus "seeks"
  rw_t rw;
  int random;
  int may_write;      // the pattern writes (refused on block devices)
  const char *help;
} pattern_def_t;

extern const pattern_def_t PATTERNS[];
extern const unsigned PATTERN_COUNT;

typedef struct {
  char name[64];
  const pattern_def_t *pattern;
  uint32_t bs;         // bytes
  uint32_t qd;         // in flight per thread
  uint32_t threads;
  uint32_t read_pct;   // randrw: share of reads, percent
  uint32_t span_mib;   // the job covers only the first span_mib MiB of the target; 0: all of it
} job_t;

// The I/O buffers of one job, qd × bs × threads, are allocated at once: bounded, so that a
// request cannot ask for terabytes (64 MiB × 1024 × 64 = 4 TiB within the keys' own limits).
#define JOB_MAX_BUFFER_BYTES (1ull << 30)

// bonnie++'s Random Seeks: each seeker reads 8 KiB at a random offset; every 10th seek
// rewrites the block it read.
#define SEEK_BLOCK 8192u
#define SEEK_REWRITE_EVERY 10u

typedef struct thread_ctx {
  const job_t *job;
  target_t *target;
  unsigned index;
  uint64_t region_start, region_len;  // sequential streams split the file between threads
  uint64_t next_seq;
  rng_t rng;
  _Atomic uint64_t deadline_ns;       // stop submitting from here on (the main thread may bring it forward)
  int seeks_read_only;                // block device: seeks never rewrite
  // The stream is cut into back-to-back windows (warm-up, then runs) without pausing it: a
  // completion at or after window_end closes the window (job_close_windows, phase.c).
  uint64_t window_start, window_end;
  _Atomic uint64_t window_ns;         // the main thread lengthens it for a slow device, late in the warm-up
  unsigned window;
  struct window_slots *slots;
  // Results of this thread for the current window.
  histogram_t hist;
  uint64_t ios, bytes, reads, writes;
  // Running totals of the job, which the main thread samples for the live chart.
  _Atomic uint64_t live_bytes, live_ios;
  int err;                            // errno of a failed I/O, 0 if none
  uint64_t err_offset;
  void *engine_data;
} thread_ctx_t;

// Chooses the next I/O of a thread: offset and direction. Defined in job.c.
void job_next_io(thread_ctx_t *t, uint64_t *offset, int *is_write);
// Makes a write buffer unique before it is written again (defeats dedupe and compression).
void job_scramble(thread_ctx_t *t, void *buf, uint32_t len);
// Hands this thread's figures for the window that ended by `now` to the main thread.
void job_close_windows(thread_ctx_t *t, uint64_t now);
// Whether the thread may submit another I/O at `now`.
static inline int job_submitting(thread_ctx_t *t, uint64_t now) {
  return now < atomic_load_explicit(&t->deadline_ns, memory_order_relaxed);
}
// Records one completed I/O; `now` is when it completed and decides its window.
static inline void job_complete(thread_ctx_t *t, uint32_t bytes, int is_write, uint64_t lat_ns, uint64_t now) {
  hist_add(&t->hist, lat_ns);
  t->ios++;
  t->bytes += bytes;
  if (is_write) t->writes++; else t->reads++;
  // The first completion at or after the boundary is the window's last: a window then spans
  // whole intervals between completions, so even a few large I/Os per window give their
  // true rate instead of a count rounded to the window's length.
  // Running totals over the whole job (one writer: a plain load and store suffice).
  atomic_store_explicit(&t->live_bytes, atomic_load_explicit(&t->live_bytes, memory_order_relaxed) + bytes, memory_order_relaxed);
  atomic_store_explicit(&t->live_ios, atomic_load_explicit(&t->live_ios, memory_order_relaxed) + 1, memory_order_relaxed);
  if (__builtin_expect(now >= t->window_end, 0)) job_close_windows(t, now);
}

int job_parse(job_t *job, const char *spec, char *err, unsigned errlen);
// The job keys and patterns, for --help (generated from the tables in job.c).
const char *job_keys_help(void);

#endif
