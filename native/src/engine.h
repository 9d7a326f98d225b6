// I/O engines, as a table of operations (the way fio's ioengine_ops is).
#ifndef DD_ENGINE_H
#define DD_ENGINE_H

#include <signal.h>
#include <stddef.h>

#include "job.h"

typedef struct io_engine {
  const char *name;
  const char *help;
  // Whether the engine can measure this target truthfully here: 0, or an errno with `why`
  // filled in (a sentence, for the warning). NULL: always.
  int (*probe)(const target_t *target, char *why, size_t why_len);
  // What to use instead when probe fails (reported as a warning); NULL: none.
  const struct io_engine *fallback;
  // Allocates the queue and aligned buffers of one thread. Returns 0 or an errno.
  int (*init)(thread_ctx_t *t);
  // Issues I/O until t->deadline_ns or g_stop, then drains what is in flight. 0 or an errno.
  int (*run)(thread_ctx_t *t);
  void (*cleanup)(thread_ctx_t *t);
} io_engine_t;

extern const io_engine_t ENGINE_IO_URING;
extern const io_engine_t ENGINE_AIO;
extern const io_engine_t ENGINE_PSYNC;
extern const io_engine_t *const ENGINES[];
extern const unsigned ENGINE_COUNT;

extern volatile sig_atomic_t g_stop;

// The engine to run: `want`, or the first of its fallbacks this kernel offers. Each step
// down is reported with a warning line naming the reason.
const io_engine_t *engine_available(const io_engine_t *want, const target_t *target);

#endif
