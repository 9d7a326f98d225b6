#include "phase.h"

#include <errno.h>
#include <linux/futex.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "ndjson.h"

// Window figures travel from the I/O threads to the main thread through a ring of slots, one
// per window: a thread merges its figures into the slot when it sees the window end (at its
// next completion), the main thread reads the slot once every thread has, then frees it for
// the window WINDOW_SLOTS later. The hot path never touches it: a thread locks a slot once
// per window.
#define WINDOW_SLOTS 8
// The longest window the warm-up may choose for a slow device.
#define MAX_WINDOW_NS 2000000000ull

typedef struct {
  pthread_mutex_t lock;
  unsigned window;        // which window the slot collects
  unsigned contributors;  // threads that have handed it their figures
  histogram_t hist;
  uint64_t ios, bytes, reads, writes;
  uint64_t elapsed_ns;                // summed over the threads (their mean is reported)
  double bytes_per_sec, iops;         // summed over the threads: each its own bytes over its own span
} window_slot_t;

typedef struct window_slots {
  window_slot_t slot[WINDOW_SLOTS];
  _Atomic unsigned handed;  // futex word: bumped by every hand-over and every thread exit
} window_slots_t;

// Where the threads wait after their engine's init until the main thread says go — or says
// stop, because a later thread could not be created. (A barrier sized for every thread could
// never open then, and the threads already waiting on it would outlive the memory they use.)
typedef struct {
  pthread_mutex_t lock;
  pthread_cond_t changed;
  unsigned ready;  // threads past init
  enum { GATE_WAIT, GATE_GO, GATE_STOP } state;
} start_gate_t;

typedef struct {
  thread_ctx_t ctx;
  const io_engine_t *engine;
  start_gate_t *gate;
  _Atomic unsigned *finished;
  int init_rc;
} worker_thread_t;

static void wake_main(_Atomic unsigned *word) {
  atomic_fetch_add(word, 1);
  syscall(SYS_futex, word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}

// A window that ends after the thread's deadline is cut short (the job is stopping): its
// figures are dropped, never handed over.
static int window_cut(thread_ctx_t *t) {
  return t->window_end > atomic_load_explicit(&t->deadline_ns, memory_order_relaxed);
}

static void reset_window(thread_ctx_t *t, uint64_t now) {
  hist_reset(&t->hist);
  t->ios = t->bytes = t->reads = t->writes = 0;
  t->window++;
  t->window_start = now;
  t->window_end += atomic_load_explicit(&t->window_ns, memory_order_relaxed);
}

// A thread that completed nothing for longer than a window (a stalled device) closes one
// window spanning the whole stall and hands empty ones over for the boundaries it skipped.
void job_close_windows(thread_ctx_t *t, uint64_t now) {
  while (now >= t->window_end) {
    window_slot_t *s = &t->slots->slot[t->window % WINDOW_SLOTS];
    int cut = 0;
    for (;;) {
      if ((cut = window_cut(t))) break;
      pthread_mutex_lock(&s->lock);
      if (s->window == t->window) break;
      // The main thread has not read this slot's previous window yet (it fell WINDOW_SLOTS
      // windows behind): wait for it rather than mix two windows.
      pthread_mutex_unlock(&s->lock);
      struct timespec ms = {.tv_sec = 0, .tv_nsec = 1000000};
      nanosleep(&ms, NULL);
    }
    if (cut) {
      reset_window(t, now);
      continue;
    }
    hist_merge(&s->hist, &t->hist);
    s->ios += t->ios, s->bytes += t->bytes, s->reads += t->reads, s->writes += t->writes;
    uint64_t span = now - t->window_start;
    if (span > 0) {
      s->elapsed_ns += span;
      s->bytes_per_sec += (double)t->bytes * 1e9 / (double)span;
      s->iops += (double)t->ios * 1e9 / (double)span;
    }
    s->contributors++;
    pthread_mutex_unlock(&s->lock);
    reset_window(t, now);
    wake_main(&t->slots->handed);
  }
}

static void *thread_main(void *arg) {
  worker_thread_t *w = arg;
  w->init_rc = w->engine->init(&w->ctx);
  start_gate_t *g = w->gate;
  pthread_mutex_lock(&g->lock);
  g->ready++;
  pthread_cond_broadcast(&g->changed);
  while (g->state == GATE_WAIT) pthread_cond_wait(&g->changed, &g->lock);
  int go = g->state == GATE_GO;
  pthread_mutex_unlock(&g->lock);
  // Everyone starts the clock together, even after a failed init.
  if (w->init_rc == 0 && go) {
    // deadline_ns and window_end are published by the main thread before it opens the gate.
    w->engine->run(&w->ctx);
  }
  if (w->init_rc == 0) w->engine->cleanup(&w->ctx);
  atomic_fetch_add(w->finished, 1);
  wake_main(&w->ctx.slots->handed);
  return NULL;
}

static void gate_open(start_gate_t *g, int state) {
  pthread_mutex_lock(&g->lock);
  g->state = state;
  pthread_cond_broadcast(&g->changed);
  pthread_mutex_unlock(&g->lock);
}

static uint64_t rusage_ns(const struct timeval *tv) {
  return (uint64_t)tv->tv_sec * 1000000000ull + (uint64_t)tv->tv_usec * 1000ull;
}

static void cpu_now(uint64_t *user, uint64_t *sys) {
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  *user = rusage_ns(&ru.ru_utime);
  *sys = rusage_ns(&ru.ru_stime);
}

static void emit_progress(const job_t *job, const job_opts_t *o, unsigned run, unsigned runs, uint64_t elapsed_ns,
                          uint64_t planned_ns) {
  jbuf_t b;
  jb_begin(&b, "progress");
  jb_str(&b, "phase", run == 0 ? "warmup" : "measure");
  jb_u64(&b, "job", o->job_index);
  jb_u64(&b, "jobs", o->job_count);
  jb_str(&b, "name", job->name);
  jb_u64(&b, "run", run);
  jb_u64(&b, "runs", runs);
  jb_u64(&b, "elapsed_ns", elapsed_ns);
  jb_u64(&b, "planned_ns", planned_ns);
  jb_end_emit(&b);
}

static void emit_sample(const job_t *job, const job_opts_t *o, unsigned run, uint64_t t_ns, double bps, double iops) {
  jbuf_t b;
  jb_begin(&b, "sample");
  jb_u64(&b, "job", o->job_index);
  jb_str(&b, "name", job->name);
  jb_u64(&b, "run", run);
  jb_u64(&b, "t_ms", t_ns / 1000000ull);
  jb_dbl(&b, "bytes_per_sec", bps);
  jb_dbl(&b, "iops", iops);
  jb_end_emit(&b);
}

typedef struct {
  uint64_t elapsed_ns, ios, bytes, reads, writes, user_ns, sys_ns;
  double bytes_per_sec, iops;
  const histogram_t *hist;
  const char *engine_used;
  double ci_relative;  // < 0: not yet known
  uint64_t job_ns;
  const char *stop;    // NULL: more runs follow
} run_figures_t;

static void emit_result(const job_t *job, const target_t *target, const job_opts_t *o, unsigned run,
                        const run_figures_t *r) {
  const histogram_t *h = r->hist;
  jbuf_t b;
  jb_begin(&b, "result");
  jb_u64(&b, "job", o->job_index);
  jb_str(&b, "name", job->name);
  jb_u64(&b, "run", run);
  jb_str(&b, "rw", job->pattern->name);
  jb_u64(&b, "bs", job->bs);
  jb_u64(&b, "qd", job->pattern->rw == RW_SEEKS || r->engine_used == ENGINE_PSYNC.name ? 1 : job->qd);
  jb_u64(&b, "threads", job->threads);
  if (job->pattern->rw == RW_RANDRW) jb_u64(&b, "read_pct", job->read_pct);
  if (job->span_mib) jb_u64(&b, "span_mib", job->span_mib);
  jb_str(&b, "engine", r->engine_used);
  jb_bool(&b, "direct", target->direct);
  jb_u64(&b, "elapsed_ns", r->elapsed_ns);
  jb_u64(&b, "ios", r->ios);
  jb_u64(&b, "bytes", r->bytes);
  jb_u64(&b, "reads", r->reads);
  jb_u64(&b, "writes", r->writes);
  jb_dbl(&b, "bytes_per_sec", r->bytes_per_sec);
  jb_dbl(&b, "iops", r->iops);
  jb_key(&b, "lat_ns");
  char lat[512];
  snprintf(lat, sizeof lat,
           "{\"mean\":%.1f,\"min\":%llu,\"p50\":%llu,\"p90\":%llu,\"p99\":%llu,\"p999\":%llu,\"max\":%llu}",
           h->count ? (double)h->sum_ns / (double)h->count : 0.0, (unsigned long long)(h->count ? h->min_ns : 0),
           (unsigned long long)hist_quantile(h, 0.50), (unsigned long long)hist_quantile(h, 0.90),
           (unsigned long long)hist_quantile(h, 0.99), (unsigned long long)hist_quantile(h, 0.999),
           (unsigned long long)h->max_ns);
  jb_raw(&b, lat);
  jb_key(&b, "hist");
  jb_raw(&b, "[");
  int first = 1;
  for (unsigned i = 0; i < HIST_BUCKETS; i++) {
    if (!h->buckets[i]) continue;
    char pair[64];
    snprintf(pair, sizeof pair, "%s[%llu,%llu]", first ? "" : ",", (unsigned long long)hist_bucket_lower(i),
             (unsigned long long)h->buckets[i]);
    jb_raw(&b, pair);
    first = 0;
  }
  jb_raw(&b, "]");
  jb_key(&b, "cpu");
  char cpu[128];
  snprintf(cpu, sizeof cpu, "{\"user_ns\":%llu,\"sys_ns\":%llu}", (unsigned long long)r->user_ns,
           (unsigned long long)r->sys_ns);
  jb_raw(&b, cpu);
  if (r->ci_relative >= 0) jb_dbl(&b, "ci_relative", r->ci_relative);
  jb_u64(&b, "job_ns", r->job_ns);
  if (r->stop) jb_str(&b, "stop", r->stop);
  jb_end_emit(&b);
}

static int start_threads(const job_t *job, target_t *target, const job_opts_t *o, const io_engine_t *engine,
                         worker_thread_t *ws, pthread_t *tids, start_gate_t *gate, _Atomic unsigned *finished,
                         window_slots_t *slots) {
  unsigned n = job->threads;
  uint64_t covered = target->size;
  if (job->span_mib) {
    covered = (uint64_t)job->span_mib << 20;
    if (covered > target->size)
      return emit_failure(FAIL_USAGE, "span=%u MiB is more than the target's %llu MiB: lower span= or raise --size",
                          job->span_mib, (unsigned long long)(target->size >> 20));
  }
  // Sequential streams each get their own slice; random I/O roams the whole span.
  uint64_t slice = job->pattern->random ? covered / job->bs * job->bs : (covered / n) / job->bs * job->bs;
  if (slice < job->bs) {
    return emit_failure(FAIL_USAGE, "the test size is too small for %u thread(s) of %u-byte blocks", n, job->bs);
  }
  for (unsigned i = 0; i < n; i++) {
    thread_ctx_t *c = &ws[i].ctx;
    memset(&ws[i], 0, sizeof ws[i]);
    c->job = job;
    c->target = target;
    c->index = i;
    c->region_start = job->pattern->random ? 0 : (uint64_t)i * slice;
    c->region_len = slice;
    c->seeks_read_only = target->is_blockdev;  // a device is only read: seeks never rewrite
    c->slots = slots;
    hist_reset(&c->hist);
    rng_seed(&c->rng, o->seed ^ ((uint64_t)o->job_index << 40) ^ i);
    ws[i].engine = engine;
    ws[i].gate = gate;
    ws[i].finished = finished;
  }
  for (unsigned i = 0; i < n; i++) {
    int e = pthread_create(&tids[i], NULL, thread_main, &ws[i]);  // returns the error; errno is not set
    if (e != 0) {
      // Stop and join the threads that did start before their memory is freed.
      gate_open(gate, GATE_STOP);
      for (unsigned k = 0; k < i; k++) pthread_join(tids[k], NULL);
      return emit_failure(FAIL_INTERNAL, "cannot start thread %u of %u: %s%s", i + 1, n, strerror(e),
                          e == EAGAIN || e == ENOMEM ? " (fewer threads, or a lower qd or bs, need less memory)" : "");
    }
  }
  return 0;
}

static void stop_threads(worker_thread_t *ws, unsigned n, uint64_t at) {
  for (unsigned i = 0; i < n; i++) atomic_store_explicit(&ws[i].ctx.deadline_ns, at, memory_order_relaxed);
}

int run_job(const job_t *job, target_t *target, const job_opts_t *o) {
  unsigned n = job->threads;
  // Seeks are synchronous by definition (each seeker waits for its block).
  const io_engine_t *engine = job->pattern->rw == RW_SEEKS ? &ENGINE_PSYNC : o->engine;
  int writes = job->pattern->may_write && !(job->pattern->rw == RW_SEEKS && target->is_blockdev);
  worker_thread_t *ws = calloc(n, sizeof *ws);
  pthread_t *tids = calloc(n, sizeof *tids);
  window_slots_t *slots = calloc(1, sizeof *slots);
  if (!ws || !tids || !slots) {
    free(ws), free(tids), free(slots);
    return emit_failure(FAIL_INTERNAL, "cannot allocate %u threads", n);
  }
  for (unsigned i = 0; i < WINDOW_SLOTS; i++) {
    pthread_mutex_init(&slots->slot[i].lock, NULL);
    slots->slot[i].window = i;
    hist_reset(&slots->slot[i].hist);
  }
  start_gate_t gate = {.lock = PTHREAD_MUTEX_INITIALIZER, .changed = PTHREAD_COND_INITIALIZER, .ready = 0, .state = GATE_WAIT};
  _Atomic unsigned finished = 0;
  int rc = start_threads(job, target, o, engine, ws, tids, &gate, &finished, slots);
  if (rc) {
    free(ws), free(tids), free(slots);
    return rc;
  }
  pthread_mutex_lock(&gate.lock);
  while (gate.ready < n) pthread_cond_wait(&gate.changed, &gate.lock);
  pthread_mutex_unlock(&gate.lock);

  // Window w ends at first_end + w × run_ns; window 0 is the warm-up when there is one.
  uint64_t run_ns = (uint64_t)(o->duration_s * 1e9);
  const uint64_t warmup_ns = (uint64_t)(o->warmup_s * 1e9);
  const unsigned first_run = warmup_ns ? 0 : 1;  // the run number of window 0
  const unsigned max_runs = o->stop.max_runs;
  uint64_t t0 = now_ns();
  const uint64_t first_end = t0 + (warmup_ns ? warmup_ns : run_ns);
  // The threads would stop one window after the last possible run; the main thread stops
  // them as soon as it has decided.
  // Long enough for any window length the warm-up may choose (below).
  const uint64_t last_end = first_end + (uint64_t)(max_runs - first_run + 1) * (run_ns > MAX_WINDOW_NS ? run_ns : MAX_WINDOW_NS);
  for (unsigned i = 0; i < n; i++) {
    ws[i].ctx.window_start = t0;
    ws[i].ctx.window_end = first_end;
    atomic_store(&ws[i].ctx.window_ns, run_ns);
    atomic_store(&ws[i].ctx.deadline_ns, last_end);
  }
  gate_open(&gate, GATE_GO);

  stop_state_t state = {0};
  uint64_t user0, sys0;
  cpu_now(&user0, &sys0);
  const uint64_t progress_every = 250ull * 1000000ull;  // ≤ 4 progress lines a second
  const uint64_t sample_every = o->sample_ms ? (uint64_t)o->sample_ms * 1000000ull : 0;
  uint64_t next_progress = t0 + progress_every, next_sample = sample_every ? t0 + sample_every : UINT64_MAX;
  uint64_t next_flush = writes ? first_end : UINT64_MAX;
  uint64_t last_bytes = 0, last_ios = 0, last_t = t0;
  stop_rule_t rule = o->stop;
  double run_s = o->duration_s;
  // A slow device (an HDD: 38 I/Os a second of 1 MiB) moves few I/Os in a short window, and
  // then every late-noticed completion moves the figure. Late in the warm-up, the rate so far
  // decides the runs' window: long enough for min_window_ios I/Os, so a run is as resolved on
  // an HDD as on an SSD; fast devices keep --duration.
  uint64_t rate_from = t0 + warmup_ns / 4, rate_at = t0 + warmup_ns * 9 / 10, ios_from = 0;
  int sized = !warmup_ns || !o->min_window_ios, counting = 0;
  unsigned consumed = 0;  // windows read so far
  int stopping = 0, decided = 0, flush_err = 0;
  unsigned seen;
  while ((seen = atomic_load(&slots->handed)), atomic_load(&finished) < n) {
    uint64_t now = now_ns();
    if (!stopping && (g_stop || atomic_load(&finished) > 0)) {
      // A thread ended on its own (an I/O error, an engine that could not start): stop all.
      stopping = 1;
      stop_threads(ws, n, 0);
    }
    if (!sized && now >= (counting ? rate_at : rate_from)) {
      uint64_t ios = 0;
      for (unsigned i = 0; i < n; i++) ios += atomic_load_explicit(&ws[i].ctx.live_ios, memory_order_relaxed);
      if (!counting) {
        counting = 1, ios_from = ios, rate_from = now;  // the first quarter of the warm-up is start-up
      } else {
        double rate = (double)(ios - ios_from) * 1e9 / (double)(now - rate_from);
        uint64_t want = rate > 0 ? (uint64_t)((double)o->min_window_ios / rate * 1e9) : MAX_WINDOW_NS;
        // Windows only grow: a --duration already above MAX_WINDOW_NS is kept, never cut to it.
        if (want > MAX_WINDOW_NS) want = MAX_WINDOW_NS;
        if (want > run_ns) {
          run_ns = want;
          run_s = (double)run_ns / 1e9;
          for (unsigned i = 0; i < n; i++) atomic_store_explicit(&ws[i].ctx.window_ns, run_ns, memory_order_relaxed);
          // The runs it takes to estimate a spread still fit in the test's time.
          // (half a window of slack: each run spans its window plus the wait for a completion)
          if (rule.max_time_s > 0 && rule.max_time_s < (rule.min_runs + 0.5) * run_s) rule.max_time_s = (rule.min_runs + 0.5) * run_s;
        }
        sized = 1;
      }
    }
    window_slot_t *s = &slots->slot[consumed % WINDOW_SLOTS];
    pthread_mutex_lock(&s->lock);
    int complete = !stopping && s->contributors == n;
    pthread_mutex_unlock(&s->lock);
    if (complete) {
      unsigned run = consumed + first_run;
      uint64_t user1, sys1;
      cpu_now(&user1, &sys1);
      if (run > 0) {
        uint64_t elapsed = s->elapsed_ns / n;
        const char *stop = stop_after_run(&rule, &state, s->bytes_per_sec, s->ios, elapsed, run_s);
        run_figures_t r = {.elapsed_ns = elapsed, .bytes_per_sec = s->bytes_per_sec, .iops = s->iops,
                           .ios = s->ios, .bytes = s->bytes, .reads = s->reads,
                           .writes = s->writes, .user_ns = user1 - user0, .sys_ns = sys1 - sys0, .hist = &s->hist,
                           .engine_used = engine->name, .ci_relative = median_ci_relative(state.values, state.n),
                           .job_ns = now - t0, .stop = stop};
        if (!g_stop) emit_result(job, target, o, run, &r);
        if (stop) decided = stopping = 1, stop_threads(ws, n, 0);
      }
      user0 = user1, sys0 = sys1;
      pthread_mutex_lock(&s->lock);
      hist_reset(&s->hist);
      s->ios = s->bytes = s->reads = s->writes = s->elapsed_ns = 0;
      s->bytes_per_sec = s->iops = 0;
      s->contributors = 0;
      s->window += WINDOW_SLOTS;
      pthread_mutex_unlock(&s->lock);
      consumed++;
      continue;
    }
    // Written data only counts once it is on the disk: flush at every window boundary, after
    // reading the windows already handed over. A flush can take seconds (dm-crypt on a loop
    // device on a throttled disk); read first, the threads never wait on a main thread stuck
    // flushing while their windows pile up, which let them reach their deadline undecided.
    if (now >= next_flush && !stopping) {
      if (fsync(target->fd) != 0) flush_err = errno, stopping = 1, stop_threads(ws, n, 0);
      while (next_flush <= now) next_flush += run_ns;
      continue;
    }
    if (now >= next_sample) {
      uint64_t bytes = 0, ios = 0;
      for (unsigned i = 0; i < n; i++) {
        bytes += atomic_load_explicit(&ws[i].ctx.live_bytes, memory_order_relaxed);
        ios += atomic_load_explicit(&ws[i].ctx.live_ios, memory_order_relaxed);
      }
      unsigned window = now < first_end ? 0 : (unsigned)((now - first_end) / run_ns) + 1;
      uint64_t window_start = window == 0 ? t0 : first_end + (uint64_t)(window - 1) * run_ns;
      double dt = (double)(now - last_t) / 1e9;
      // Samples are for the runs' charts; the warm-up's are not shown.
      if (window + first_run > 0 && !stopping)
        emit_sample(job, o, window + first_run, now - window_start, (double)(bytes - last_bytes) / dt, (double)(ios - last_ios) / dt);
      last_bytes = bytes, last_ios = ios, last_t = now;
      next_sample += sample_every;
      continue;
    }
    if (now >= next_progress) {
      unsigned window = now < first_end ? 0 : (unsigned)((now - first_end) / run_ns) + 1;
      uint64_t window_start = window == 0 ? t0 : first_end + (uint64_t)(window - 1) * run_ns;
      unsigned run = window + first_run;
      if (!stopping && run <= max_runs)
        emit_progress(job, o, run, max_runs, now - window_start, run == 0 ? warmup_ns : run_ns);
      next_progress += progress_every;
      continue;
    }
    uint64_t wake = next_progress < next_sample ? next_progress : next_sample;
    if (next_flush < wake && !stopping) wake = next_flush;
    if (!sized && (counting ? rate_at : rate_from) < wake) wake = counting ? rate_at : rate_from;
    // Sleep until the next line or flush is due, or until a thread hands a window over or ends.
    uint64_t nap = wake > now ? wake - now : 0;
    struct timespec ts = {.tv_sec = (time_t)(nap / 1000000000ull), .tv_nsec = (long)(nap % 1000000000ull)};
    syscall(SYS_futex, &slots->handed, FUTEX_WAIT_PRIVATE, seen, &ts, NULL, 0);
  }
  for (unsigned i = 0; i < n; i++) pthread_join(tids[i], NULL);

  int init_failed = 0, err = flush_err;
  uint64_t err_offset = 0;
  for (unsigned i = 0; i < n; i++) {
    if (ws[i].init_rc) init_failed = ws[i].init_rc;
    if (ws[i].ctx.err && !err) err = ws[i].ctx.err, err_offset = ws[i].ctx.err_offset;
  }
  for (unsigned i = 0; i < WINDOW_SLOTS; i++) pthread_mutex_destroy(&slots->slot[i].lock);
  free(ws), free(tids), free(slots);

  if (init_failed) {
    return emit_failure(FAIL_INTERNAL, "the %s engine could not start: %s%s", engine->name, strerror(init_failed),
                        init_failed == EAGAIN ? " (raise /proc/sys/fs/aio-max-nr, or choose the psync engine)" : "");
  }
  if (err) {
    return emit_failure(err == ENOSPC ? FAIL_NO_SPACE : FAIL_IO_ERROR, "%s failed at offset %llu: %s%s", job->name,
                        (unsigned long long)err_offset, strerror(err),
                        err == ENOSPC ? ". The disk is full: free some space or choose a smaller test size"
                        : err == EINVAL ? ". The device refused the request (block size or alignment)" : "");
  }
  if (!decided && !g_stop) {
    // Every thread ended before the last run was read: only an I/O error does that, and it
    // was reported above; anything else is a bug worth saying so.
    return emit_failure(FAIL_INTERNAL, "%s: the threads stopped before its runs were complete", job->name);
  }
  return 0;
}
