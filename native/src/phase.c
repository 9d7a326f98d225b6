#include "phase.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "ndjson.h"

typedef struct {
  thread_ctx_t ctx;
  const io_engine_t *engine;
  pthread_barrier_t *start;
  _Atomic unsigned *finished;
  int init_rc;
} worker_thread_t;

static void *thread_main(void *arg) {
  worker_thread_t *w = arg;
  w->init_rc = w->engine->init(&w->ctx);
  pthread_barrier_wait(w->start);  // everyone starts the clock together, even after a failed init
  if (w->init_rc == 0) {
    // deadline_ns is published by the main thread before it enters the barrier.
    w->engine->run(&w->ctx);
    w->ctx.end_ns = now_ns();  // the window closes here, not when the main thread notices
    w->engine->cleanup(&w->ctx);
  }
  atomic_fetch_add(w->finished, 1);
  return NULL;
}

static uint64_t rusage_ns(const struct timeval *tv) {
  return (uint64_t)tv->tv_sec * 1000000000ull + (uint64_t)tv->tv_usec * 1000ull;
}

static void emit_progress(const job_t *job, const phase_opts_t *o, uint64_t elapsed_ns, uint64_t planned_ns) {
  jbuf_t b;
  jb_begin(&b, "progress");
  jb_str(&b, "phase", o->run == 0 ? "warmup" : "measure");
  jb_u64(&b, "job", o->job_index);
  jb_u64(&b, "jobs", o->job_count);
  jb_str(&b, "name", job->name);
  jb_u64(&b, "run", o->run);
  jb_u64(&b, "runs", o->runs);
  jb_u64(&b, "elapsed_ns", elapsed_ns);
  jb_u64(&b, "planned_ns", planned_ns);
  jb_end_emit(&b);
}

static void emit_sample(const job_t *job, const phase_opts_t *o, uint64_t t_ns, double bps, double iops) {
  jbuf_t b;
  jb_begin(&b, "sample");
  jb_u64(&b, "job", o->job_index);
  jb_str(&b, "name", job->name);
  jb_u64(&b, "run", o->run);
  jb_u64(&b, "t_ms", t_ns / 1000000ull);
  jb_dbl(&b, "bytes_per_sec", bps);
  jb_dbl(&b, "iops", iops);
  jb_end_emit(&b);
}

static int start_threads(const job_t *job, target_t *target, const phase_opts_t *o, const io_engine_t *engine,
                         worker_thread_t *ws, pthread_t *tids, pthread_barrier_t *start, _Atomic unsigned *finished,
                         int *seeks_read_only) {
  unsigned n = job->threads;
  // Sequential streams each get their own slice; random I/O roams the whole target.
  uint64_t slice = job->pattern->random ? target->size : (target->size / n) / job->bs * job->bs;
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
    c->next_seq = o->seq_resume[i] % slice;
    c->seeks_read_only = *seeks_read_only;
    hist_reset(&c->hist);
    rng_seed(&c->rng, o->seed ^ ((uint64_t)o->job_index << 40) ^ ((uint64_t)o->run << 20) ^ i);
    ws[i].engine = engine;
    ws[i].start = start;
    ws[i].finished = finished;
  }
  for (unsigned i = 0; i < n; i++) {
    if (pthread_create(&tids[i], NULL, thread_main, &ws[i]) != 0) {
      // the barrier can never complete; the caller exits the process
      return emit_failure(FAIL_INTERNAL, "cannot start thread %u of %u: %s", i + 1, n, strerror(errno));
    }
  }
  return 0;
}

int run_phase(const job_t *job, target_t *target, const phase_opts_t *o, phase_result_t *out) {
  unsigned n = job->threads;
  // Seeks are synchronous by definition (each seeker waits for its block).
  const io_engine_t *engine = job->pattern->rw == RW_SEEKS ? &ENGINE_PSYNC : o->engine;
  int seeks_read_only = target->is_blockdev;
  worker_thread_t *ws = calloc(n, sizeof *ws);
  pthread_t *tids = calloc(n, sizeof *tids);
  if (!ws || !tids) {
    free(ws), free(tids);
    return emit_failure(FAIL_INTERNAL, "cannot allocate %u threads", n);
  }
  pthread_barrier_t start;
  pthread_barrier_init(&start, NULL, n + 1);
  _Atomic unsigned finished = 0;
  int rc = start_threads(job, target, o, engine, ws, tids, &start, &finished, &seeks_read_only);
  if (rc) {
    free(ws), free(tids);
    return rc;
  }

  uint64_t planned = (uint64_t)(o->duration_s * 1e9);
  struct rusage ru0, ru1;
  getrusage(RUSAGE_SELF, &ru0);
  uint64_t t0 = now_ns();
  for (unsigned i = 0; i < n; i++) ws[i].ctx.deadline_ns = t0 + planned;
  pthread_barrier_wait(&start);

  const uint64_t progress_every = 250ull * 1000000ull;  // ≤ 4 progress lines a second
  uint64_t sample_every = o->run > 0 && o->sample_ms ? (uint64_t)o->sample_ms * 1000000ull : 0;
  uint64_t next_progress = t0 + progress_every, next_sample = sample_every ? t0 + sample_every : UINT64_MAX;
  uint64_t last_bytes = 0, last_ios = 0, last_t = t0;
  while (atomic_load(&finished) < n) {
    uint64_t wake = next_progress < next_sample ? next_progress : next_sample;
    uint64_t now = now_ns();
    if (wake > now) {
      uint64_t nap = wake - now;
      if (nap > 20000000ull) nap = 20000000ull;  // check for the end of the window often
      struct timespec ts = {.tv_sec = 0, .tv_nsec = (long)nap};
      nanosleep(&ts, NULL);
      continue;
    }
    if (now >= next_sample) {
      uint64_t bytes = 0, ios = 0;
      for (unsigned i = 0; i < n; i++) {
        bytes += atomic_load_explicit(&ws[i].ctx.live_bytes, memory_order_relaxed);
        ios += atomic_load_explicit(&ws[i].ctx.live_ios, memory_order_relaxed);
      }
      double dt = (double)(now - last_t) / 1e9;
      emit_sample(job, o, now - t0, (double)(bytes - last_bytes) / dt, (double)(ios - last_ios) / dt);
      last_bytes = bytes, last_ios = ios, last_t = now;
      next_sample += sample_every;
    }
    if (now >= next_progress) {
      emit_progress(job, o, now - t0, planned);
      next_progress += progress_every;
    }
  }
  for (unsigned i = 0; i < n; i++) pthread_join(tids[i], NULL);
  pthread_barrier_destroy(&start);

  memset(out, 0, sizeof *out);
  hist_reset(&out->hist);
  out->engine_used = engine->name;
  int init_failed = 0;
  uint64_t t1 = t0;
  for (unsigned i = 0; i < n; i++) {
    thread_ctx_t *c = &ws[i].ctx;
    if (c->end_ns > t1) t1 = c->end_ns;
    if (ws[i].init_rc) init_failed = ws[i].init_rc;
    hist_merge(&out->hist, &c->hist);
    out->ios += c->ios, out->bytes += c->bytes, out->reads += c->reads, out->writes += c->writes;
    if (c->err && !out->err) out->err = c->err, out->err_offset = c->err_offset;
    o->seq_resume[i] = c->next_seq;
  }
  // Written data only counts once it is on the disk: the flush is part of the window.
  if (!out->err && !init_failed && !g_stop && out->writes > 0) {
    uint64_t flush_start = now_ns();
    if (fsync(target->fd) != 0) out->err = errno;
    t1 += now_ns() - flush_start;
  }
  getrusage(RUSAGE_SELF, &ru1);
  out->elapsed_ns = t1 - t0;
  out->user_ns = rusage_ns(&ru1.ru_utime) - rusage_ns(&ru0.ru_utime);
  out->sys_ns = rusage_ns(&ru1.ru_stime) - rusage_ns(&ru0.ru_stime);
  free(ws), free(tids);

  if (init_failed) {
    return emit_failure(FAIL_INTERNAL, "the %s engine could not start: %s%s", engine->name, strerror(init_failed),
                        init_failed == EAGAIN ? " (raise /proc/sys/fs/aio-max-nr, or use --engine psync)" : "");
  }
  if (out->err) {
    int e = out->err;
    return emit_failure(e == ENOSPC ? FAIL_NO_SPACE : FAIL_IO_ERROR, "%s failed at offset %llu: %s%s", job->name,
                        (unsigned long long)out->err_offset, strerror(e),
                        e == ENOSPC ? ". The disk is full: free some space or pass a smaller --size"
                        : e == EINVAL ? ". The device refused the request (block size or alignment)" : "");
  }
  return 0;
}

void emit_result(const job_t *job, const target_t *target, const phase_opts_t *o, const phase_result_t *r) {
  const histogram_t *h = &r->hist;
  double secs = (double)r->elapsed_ns / 1e9;
  jbuf_t b;
  jb_begin(&b, "result");
  jb_u64(&b, "job", o->job_index);
  jb_str(&b, "name", job->name);
  jb_u64(&b, "run", o->run);
  jb_str(&b, "rw", job->pattern->name);
  jb_u64(&b, "bs", job->bs);
  jb_u64(&b, "qd", job->pattern->rw == RW_SEEKS || r->engine_used == ENGINE_PSYNC.name ? 1 : job->qd);
  jb_u64(&b, "threads", job->threads);
  if (job->pattern->rw == RW_RANDRW) jb_u64(&b, "read_pct", job->read_pct);
  jb_str(&b, "engine", r->engine_used);
  jb_bool(&b, "direct", target->direct);
  jb_u64(&b, "elapsed_ns", r->elapsed_ns);
  jb_u64(&b, "ios", r->ios);
  jb_u64(&b, "bytes", r->bytes);
  jb_u64(&b, "reads", r->reads);
  jb_u64(&b, "writes", r->writes);
  jb_dbl(&b, "bytes_per_sec", secs > 0 ? (double)r->bytes / secs : 0);
  jb_dbl(&b, "iops", secs > 0 ? (double)r->ios / secs : 0);
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
  jb_end_emit(&b);
}
