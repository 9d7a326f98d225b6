// One timed window of one job: threads start together, stop submitting at the deadline,
// drain, and writes end with fsync inside the window. Streams samples and progress.
#ifndef DD_PHASE_H
#define DD_PHASE_H

#include "engine.h"
#include "job.h"

typedef struct {
  const io_engine_t *engine;
  double duration_s;
  unsigned sample_ms;     // 0: no samples
  uint64_t seed;
  unsigned job_index, job_count;
  unsigned run, runs;     // run 0 is the warm-up
  uint64_t *seq_resume;   // per thread: where the sequential stream continues
} phase_opts_t;

typedef struct {
  uint64_t elapsed_ns, ios, bytes, reads, writes;
  uint64_t user_ns, sys_ns;
  histogram_t hist;
  int err;
  uint64_t err_offset;
  const char *engine_used;
} phase_result_t;

// Returns 0, or an EXIT_* code after emitting an error line.
// Where a job stands after a run: the interval reached so far, the job's seconds so far
// (warm-up included) and, on its last run, why it stopped.
typedef struct {
  double ci_relative;  // < 0: not yet known (one run)
  uint64_t job_ns;
  const char *stop;    // NULL: more runs follow
} result_stopping_t;

int run_phase(const job_t *job, target_t *target, const phase_opts_t *o, phase_result_t *out);
void emit_result(const job_t *job, const target_t *target, const phase_opts_t *o, const phase_result_t *r,
                 const result_stopping_t *s);

#endif
