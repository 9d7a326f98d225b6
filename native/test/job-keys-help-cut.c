// Prints job_keys_help() from a job.c built with a small buffer (-DJOB_KEYS_HELP_BYTES=…): the
// text must come out cut, never overrun (build.test.ts builds this under ASan).
#include <stdio.h>

#include "job.h"

int main(void) {
  fputs(job_keys_help(), stdout);
  return 0;
}
