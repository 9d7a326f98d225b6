#include "util.h"

#include <stdio.h>
#include <string.h>

const char *shown_path(const char *path) {
  static _Thread_local char slots[4][256];
  static _Thread_local unsigned next;
  size_t len = strlen(path);
  if (len <= 200) return path;
  char *buf = slots[next++ % 4];
  snprintf(buf, sizeof slots[0], "%.80s…%s (a path of %zu characters)", path, path + len - 80, len);
  return buf;
}

const char *shown_bytes(uint64_t bytes) {
  static _Thread_local char slots[4][32];
  static _Thread_local unsigned next;
  static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  double value = (double)bytes;
  unsigned i = 0;
  while (value >= 1024 && i < sizeof units / sizeof units[0] - 1) value /= 1024, i++;
  char *buf = slots[next++ % 4];
  int decimals = value == (double)(uint64_t)value ? 0 : value >= 100 ? 0 : value >= 10 ? 1 : 2;
  snprintf(buf, sizeof slots[0], "%.*f %s", decimals, value, units[i]);
  return buf;
}

void rng_seed(rng_t *r, uint64_t seed) {
  // splitmix64 expands one seed into the four words xoshiro needs.
  for (int i = 0; i < 4; i++) {
    uint64_t z = (seed += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    r->s[i] = z ^ (z >> 31);
  }
}

void fill_random(rng_t *r, void *buf, size_t len) {
  uint8_t *p = buf;
  while (len >= 8) {
    uint64_t v = rng_next(r);
    memcpy(p, &v, 8);
    p += 8;
    len -= 8;
  }
  if (len) {
    uint64_t v = rng_next(r);
    memcpy(p, &v, len);
  }
}
