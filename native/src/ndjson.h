// The worker's only stdout: one JSON object per line, each with "v" (protocol version) and
// "type" (hello, progress, sample, result, warning, error, done). Human logs go to stderr.
// Lines are written whole under a lock, so threads never interleave.
#ifndef DD_NDJSON_H
#define DD_NDJSON_H

#include <stddef.h>
#include <stdint.h>

#include "failures.h"

typedef struct {
  char *buf;
  size_t len, cap;
} jbuf_t;

void jb_begin(jbuf_t *b, const char *type);   // {"v":1,"type":"…"
void jb_key(jbuf_t *b, const char *key);      // ,"key":
void jb_str(jbuf_t *b, const char *key, const char *value);
void jb_u64(jbuf_t *b, const char *key, uint64_t value);
void jb_i64(jbuf_t *b, const char *key, int64_t value);
void jb_dbl(jbuf_t *b, const char *key, double value);
void jb_bool(jbuf_t *b, const char *key, int value);
void jb_raw(jbuf_t *b, const char *text);     // append verbatim
void jb_end_emit(jbuf_t *b);                  // } + newline, written atomically, buffer freed

// A byte-progress line: {"type":"progress","phase":…,"jobs":…,"done_bytes":…,"total_bytes":…}.
void emit_byte_progress(const char *phase, uint64_t jobs, uint64_t done, uint64_t total);
void emit_warning(const char *code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
// An error line with the failure's code (failures.h, generated from the one list); returns its exit status.
int emit_failure(failure_t failure, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void emit_done(const char *status, int exit_code);
// The end of a verb that did timed work, after its cleanup: a signal's stop (`stopped`) is exit 7
// with an error line saying what was `cleaned` up, then the done line. Returns the exit status.
int emit_end(int rc, int stopped, const char *cleaned);
void logf_stderr(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
