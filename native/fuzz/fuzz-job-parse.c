// libFuzzer target: the worker's --job SPEC parser (job_parse in src/job.c) on arbitrary bytes.
// It must never crash or read out of bounds (ASan/UBSan), must NUL-terminate its error text, and
// whatever it accepts must be a job the worker can run: a known pattern, a name of a-z 0-9 - _,
// every number inside the bounds of the key table.
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "job.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *spec = malloc(size + 1);
  if (!spec) return 0;
  memcpy(spec, data, size);
  spec[size] = 0;  // argv strings are NUL-terminated; embedded NULs just end the spec early
  job_t job;
  char err[256];
  memset(err, 'x', sizeof err);
  int rc = job_parse(&job, spec, err, sizeof err);
  if (rc != 0) {
    if (!memchr(err, 0, sizeof err)) abort();  // an error must be a terminated string
  } else {
    if (!job.pattern) abort();
    if (job.bs < 512 || job.bs > (64u << 20) || job.bs % 512) abort();
    if (job.qd < 1 || job.qd > 1024 || job.threads < 1 || job.threads > 64 || job.read_pct > 100) abort();
    size_t n = strnlen(job.name, sizeof job.name);
    if (n == 0 || n >= sizeof job.name) abort();
  }
  free(spec);
  return 0;
}
