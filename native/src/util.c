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
