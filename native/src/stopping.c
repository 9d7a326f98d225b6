#include "stopping.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

// Two-sided 95 % quantiles of Student's t for 1..30 degrees of freedom; beyond, 1.96 + 2.4/df
// stays within 0.002 of the table.
static const double T975[] = {12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
                              2.201,  2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
                              2.080,  2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042};

static double t975(unsigned df) { return df <= 30 ? T975[df - 1] : 1.96 + 2.4 / df; }

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

double median_ci_relative(const double *values, unsigned n) {
  if (n < 2) return -1;
  double sorted[100], mean = 0, ss = 0;
  memcpy(sorted, values, n * sizeof *values);
  qsort(sorted, n, sizeof *sorted, cmp_double);
  double med = n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  for (unsigned i = 0; i < n; i++) mean += values[i];
  mean /= n;
  for (unsigned i = 0; i < n; i++) ss += (values[i] - mean) * (values[i] - mean);
  double sd = sqrt(ss / (n - 1));
  if (med <= 0) return -1;
  return t975(n - 1) * sqrt(M_PI / 2) * sd / sqrt((double)n) / med;
}

int pts_steady(const double *values, unsigned n) {
  if (n < 2) return 0;
  double mean = 0, lo = values[0], hi = values[0];
  for (unsigned i = 0; i < n; i++) {
    mean += values[i];
    lo = values[i] < lo ? values[i] : lo;
    hi = values[i] > hi ? values[i] : hi;
  }
  mean /= n;
  if (mean <= 0) return 0;
  // Least squares over x = 0 … n-1: slope = Σ (x − x̄)(y − ȳ) / Σ (x − x̄)².
  double xbar = (n - 1) / 2.0, sxy = 0, sxx = 0;
  for (unsigned i = 0; i < n; i++) {
    sxy += (i - xbar) * (values[i] - mean);
    sxx += (i - xbar) * (i - xbar);
  }
  double rise = fabs(sxy / sxx) * (n - 1);
  return hi - lo <= STEADY_RANGE * mean && rise <= STEADY_SLOPE * mean;
}

const char *stop_after_run(const stop_rule_t *rule, stop_state_t *s, double bytes_per_sec, uint64_t ios,
                           uint64_t elapsed_ns, double next_run_s) {
  if (s->n < sizeof s->values / sizeof s->values[0]) s->values[s->n++] = bytes_per_sec;
  s->ios += ios;
  s->measured_ns += elapsed_ns;
  if (rule->steady && s->n >= rule->min_runs && s->n >= STEADY_WINDOW && pts_steady(s->values + s->n - STEADY_WINDOW, STEADY_WINDOW))
    return "steady";
  if (s->n >= rule->max_runs) return "runs";
  if (rule->precision <= 0) return NULL;
  if (s->n >= rule->min_runs) {
    double ci = median_ci_relative(s->values, s->n);
    int resolved = s->ios >= rule->min_ios && (double)s->measured_ns / 1e9 >= rule->min_seconds;
    if (ci >= 0 && ci <= rule->precision && resolved) return "precision";
  }
  // Another run would end past the limit: stop at the last whole run.
  if (rule->max_time_s > 0 && (double)s->measured_ns / 1e9 + next_run_s > rule->max_time_s * 1.001) return "max-time";
  return NULL;
}
