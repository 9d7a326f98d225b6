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
  int steady;              // SNIA PTS steady state: stop at the first window of STEADY_WINDOW runs that holds
} stop_rule_t;

// SNIA Solid State Storage PTS (Enterprise 1.1, 2.1.24): over a measurement window of 5 rounds the
// range of the values is within 20 % of their mean, and the range of their least-squares line
// (its slope × 4 rounds) within 10 % of it. The TypeScript side (electron/shared/analysis/
// steady-state.ts) holds the same rule; native/test checks that the two agree.
#define STEADY_WINDOW 5
#define STEADY_RANGE 0.20
#define STEADY_SLOPE 0.10

// 1 when the n values (a window) are steady by that rule, else 0.
int pts_steady(const double *values, unsigned n);

typedef struct {
  double values[100];      // bytes/s of each run (--max-runs ≤ 100)
  unsigned n;
  uint64_t ios, measured_ns;
} stop_state_t;

// The median's 95 % confidence half-width relative to the median, or a negative number
// below 2 runs. Standard error of a median: sqrt(pi/2) * s / sqrt(n) (normal data), with
// Student's t for the small n the runs have.
double median_ci_relative(const double *values, unsigned n);

// After a run: NULL to go on, else why the job stops ("steady", "precision", "max-time", "runs").
const char *stop_after_run(const stop_rule_t *rule, stop_state_t *s, double bytes_per_sec, uint64_t ios,
                           uint64_t elapsed_ns, double next_run_s);

#endif
