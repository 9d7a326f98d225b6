// One job: its threads start together and stream I/O without a pause from the warm-up to
// the last run; the runs are back-to-back windows of that one stream. Stopping the stream
// between runs would idle the queue, and a disk (or the blkio throttle, which grants a
// fresh budget after idling) then shows a start-up burst that short runs cannot hide.
// Writes: fsync at every window boundary, so each window carries the cost of flushing the
// data of the one before (in steady state, exactly one flush per window).
#ifndef DD_PHASE_H
#define DD_PHASE_H

#include "engine.h"
#include "job.h"
#include "stopping.h"

typedef struct {
  const io_engine_t *engine;
  double warmup_s;        // 0: no warm-up window
  double duration_s;      // each run's window
  stop_rule_t stop;       // how many runs: fixed, or adaptive (stopping.h)
  uint64_t min_window_ios;  // 0: every run lasts duration_s; else at least this many I/Os (from the warm-up's rate)
  unsigned sample_ms;     // 0: no samples
  uint64_t seed;
  unsigned job_index, job_count;
} job_opts_t;

// Runs the job, emitting progress, sample and result lines. Returns 0, or an EXIT_* code after
// emitting an error line.
int run_job(const job_t *job, target_t *target, const job_opts_t *o);

#endif
