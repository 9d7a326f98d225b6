// The engine table (first = default) and the walk down its fallbacks.
#include <stdio.h>
#include <string.h>

#include "engine.h"
#include "ndjson.h"

const io_engine_t *const ENGINES[] = {&ENGINE_IO_URING, &ENGINE_AIO, &ENGINE_PSYNC};
const unsigned ENGINE_COUNT = sizeof ENGINES / sizeof ENGINES[0];

const io_engine_t *engine_available(const io_engine_t *want, const target_t *target) {
  const io_engine_t *e = want;
  char why[256];
  while (e->probe && e->fallback && (why[0] = 0, e->probe(target, why, sizeof why)) != 0) {
    char code[48];  // "io-uring-unavailable", "aio-unavailable": kebab-case like every code
    snprintf(code, sizeof code, "%s-unavailable", e->name);
    for (char *c = code; *c; c++)
      if (*c == '_') *c = '-';
    emit_warning(code, "%s is unavailable (%s): using %s%s", e->name, why, e->fallback->name,
                 e->fallback->fallback ? "" : ", so every job runs at queue depth 1 per thread");
    e = e->fallback;
  }
  return e;
}
