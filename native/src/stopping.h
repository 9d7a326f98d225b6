// Adaptive stopping: a job keeps adding timed runs until the median's 95 % confidence
// interval is narrow enough and enough was measured, or until its time is up.
// The TypeScript side (electron/shared/analysis/statistics.ts, medianInterval) computes the same
// interval from the stored runs to report it; native/test checks that the two agree.
#ifndef DD_STOPPING_H
#define DD_STOPPING_H

#include <stdint.h>

typedef struct {
  double precision;        // stop at a relative half-width ≤ this (0.02 = ±2 %); 0: fixed runs
  unsigned min_runs;       // never fewer timed runs than this
  unsigned max_runs;
  double max_time_s;       // timed seconds per job (warm-up excluded); 0: no limit
  uint64_t min_ios;        // resolution: I/Os over all runs
  double min_seconds;      // resolution: timed seconds over all runs
} stop_rule_t;

typedef struct {
  double values[100];      // bytes/s of each run (--max-runs ≤ 100)
  unsigned n;
  uint64_t ios, measured_ns;
} stop_state_t;

// The median's 95 % confidence half-width relative to the median, or a negative number
// below 2 runs. Standard error of a median: sqrt(pi/2) * s / sqrt(n) (normal data), with
// Student's t for the small n the runs have.
double median_ci_relative(const double *values, unsigned n);

// After a run: NULL to go on, else why the job stops ("precision", "max-time", "runs").
const char *stop_after_run(const stop_rule_t *rule, stop_state_t *s, double bytes_per_sec, uint64_t ios,
                           uint64_t elapsed_ns, double next_run_s);

#endif
