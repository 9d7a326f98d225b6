#include "histogram.h"

#include <string.h>

static unsigned bucket_index(uint64_t v) {
  if (v < HIST_SUB) return (unsigned)v;
  unsigned msb = 63u - (unsigned)__builtin_clzll(v);
  unsigned shift = msb - HIST_SUB_BITS;
  unsigned index = (msb - HIST_SUB_BITS + 1) * HIST_SUB + (unsigned)((v >> shift) & (HIST_SUB - 1));
  return index < HIST_BUCKETS ? index : HIST_BUCKETS - 1;
}

uint64_t hist_bucket_lower(unsigned index) {
  if (index < HIST_SUB) return index;
  unsigned group = index / HIST_SUB;  // >= 1
  unsigned sub = index % HIST_SUB;
  unsigned msb = group + HIST_SUB_BITS - 1;
  return (uint64_t)(HIST_SUB + sub) << (msb - HIST_SUB_BITS);
}

void hist_reset(histogram_t *h) {
  memset(h, 0, sizeof *h);
  h->min_ns = UINT64_MAX;
}

void hist_add(histogram_t *h, uint64_t ns) {
  h->count++;
  h->sum_ns += ns;
  if (ns < h->min_ns) h->min_ns = ns;
  if (ns > h->max_ns) h->max_ns = ns;
  h->buckets[bucket_index(ns)]++;
}

void hist_merge(histogram_t *into, const histogram_t *from) {
  into->count += from->count;
  into->sum_ns += from->sum_ns;
  if (from->min_ns < into->min_ns) into->min_ns = from->min_ns;
  if (from->max_ns > into->max_ns) into->max_ns = from->max_ns;
  for (unsigned i = 0; i < HIST_BUCKETS; i++) into->buckets[i] += from->buckets[i];
}

uint64_t hist_quantile(const histogram_t *h, double q) {
  if (h->count == 0) return 0;
  uint64_t rank = (uint64_t)(q * (double)h->count + 0.999999);
  if (rank < 1) rank = 1;
  uint64_t seen = 0;
  for (unsigned i = 0; i < HIST_BUCKETS; i++) {
    seen += h->buckets[i];
    if (seen >= rank) {
      uint64_t lo = hist_bucket_lower(i);
      uint64_t hi = i + 1 < HIST_BUCKETS ? hist_bucket_lower(i + 1) : lo;
      uint64_t mid = lo + (hi - lo) / 2;
      // Never report beyond the exact extremes we saw.
      if (mid > h->max_ns) mid = h->max_ns;
      if (mid < h->min_ns) mid = h->min_ns;
      return mid;
    }
  }
  return h->max_ns;
}
