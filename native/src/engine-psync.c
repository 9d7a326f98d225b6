// pread/pwrite, one I/O at a time per thread. Used for bonnie++-style seeks (each seeker is
// synchronous by definition) and as the fallback where kernel AIO is unavailable.
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine.h"

typedef struct {
  void *buf;
} psync_data_t;

static int psync_init(thread_ctx_t *t) {
  psync_data_t *d = calloc(1, sizeof *d);
  if (!d || posix_memalign(&d->buf, t->target->align, t->job->bs) != 0) return free(d), ENOMEM;
  fill_random(&t->rng, d->buf, t->job->bs);
  t->engine_data = d;
  return 0;
}

static int full_io(int fd, void *buf, uint32_t len, uint64_t off, int is_write) {
  ssize_t n = is_write ? pwrite(fd, buf, len, (off_t)off) : pread(fd, buf, len, (off_t)off);
  if (n < 0) return errno;
  return (uint32_t)n == len ? 0 : EIO;  // short I/O on an aligned in-range request: treat as error
}

static int psync_run(thread_ctx_t *t) {
  psync_data_t *d = t->engine_data;
  const job_t *j = t->job;
  int fd = t->target->fd;
  uint64_t seeks = 0;
  while (!g_stop) {
    uint64_t start = now_ns();
    if (!job_submitting(t, start)) break;
    uint64_t off;
    int is_write;
    job_next_io(t, &off, &is_write);
    if (is_write) job_scramble(t, d->buf, j->bs);
    int rc = full_io(fd, d->buf, j->bs, off, is_write);
    uint32_t bytes = j->bs;
    if (rc == 0 && j->pattern->rw == RW_SEEKS && !t->seeks_read_only && ++seeks % SEEK_REWRITE_EVERY == 0) {
      // bonnie++ dirties the block it just read and writes it back in place.
      job_scramble(t, d->buf, j->bs);
      rc = full_io(fd, d->buf, j->bs, off, 1);
      bytes += j->bs;
      t->writes++;
    }
    if (rc) {
      t->err = rc;
      t->err_offset = off;
      return rc;
    }
    uint64_t done = now_ns();
    job_complete(t, bytes, is_write, done - start, done);
  }
  return 0;
}

static void psync_cleanup(thread_ctx_t *t) {
  psync_data_t *d = t->engine_data;
  if (d) free(d->buf);
  free(d);
  t->engine_data = NULL;
}

const io_engine_t ENGINE_PSYNC = {
    .name = "psync",
    .help = "pread/pwrite, queue depth 1 per thread",
    .init = psync_init,
    .run = psync_run,
    .cleanup = psync_cleanup,
};
