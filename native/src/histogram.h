// Log-linear latency histogram: 64 sub-buckets per power of two of nanoseconds, so any
// percentile is within 1.6 % of the true value (the scheme fio's clat_plat uses).
#ifndef DD_HISTOGRAM_H
#define DD_HISTOGRAM_H

#include <stdint.h>

#define HIST_SUB_BITS 6
#define HIST_SUB (1u << HIST_SUB_BITS)
#define HIST_BUCKETS (48u * HIST_SUB)  // covers up to 2^53 ns, far beyond any I/O

typedef struct {
  uint64_t count;
  uint64_t sum_ns;
  uint64_t min_ns;
  uint64_t max_ns;
  uint64_t buckets[HIST_BUCKETS];
} histogram_t;

void hist_reset(histogram_t *h);
void hist_add(histogram_t *h, uint64_t ns);
void hist_merge(histogram_t *into, const histogram_t *from);
// The value at quantile q (0..1): the midpoint of the bucket holding that rank.
uint64_t hist_quantile(const histogram_t *h, double q);
uint64_t hist_bucket_lower(unsigned index);

#endif
