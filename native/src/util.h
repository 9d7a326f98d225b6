// Small helpers shared by every part of the worker: clocks, random numbers, errors.
#ifndef DD_UTIL_H
#define DD_UTIL_H

#include <stdint.h>
#include <time.h>

#define WORKER_NAME "diskdelta-worker"
#define WORKER_VERSION "0.1.0"
#define PROTOCOL_VERSION 1

// The exit codes and failure codes are generated from the one list in TypeScript.
#include "failures.h"

static inline uint64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

// xoshiro256** : fast, good enough for offsets and incompressible data.
typedef struct { uint64_t s[4]; } rng_t;

static inline uint64_t rotl64(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static inline uint64_t rng_next(rng_t *r) {
  uint64_t *s = r->s;
  uint64_t result = rotl64(s[1] * 5, 7) * 9;
  uint64_t t = s[1] << 17;
  s[2] ^= s[0]; s[3] ^= s[1]; s[1] ^= s[2]; s[0] ^= s[3];
  s[2] ^= t; s[3] = rotl64(s[3], 45);
  return result;
}

void rng_seed(rng_t *r, uint64_t seed);

// Uniform integer in [0, n) without modulo bias worth mentioning (multiply-shift).
static inline uint64_t rng_below(rng_t *r, uint64_t n) {
  return (uint64_t)(((__uint128_t)rng_next(r) * n) >> 64);
}

// A path as messages show it: whole up to 200 bytes, else its start and end and its length, so
// that a 5,000-character path neither floods the terminal nor cuts the message's reason off.
// The result lives until the fourth next call in the same thread.
const char *shown_path(const char *path);

// A byte count as messages show it, in binary units with about three significant digits
// ("10 TiB", "1.50 GiB", "256 MiB"), the rule of formatBytes in electron/shared/analysis/units.ts:
// never "10485760.0 MiB". The result lives until the fourth next call in the same thread.
const char *shown_bytes(uint64_t bytes);

// Fills buf with random bytes: written data must not compress or deduplicate.
void fill_random(rng_t *r, void *buf, size_t len);

#endif
