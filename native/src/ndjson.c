#include "ndjson.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util.h"

static pthread_mutex_t out_lock = PTHREAD_MUTEX_INITIALIZER;

static void jb_putn(jbuf_t *b, const char *s, size_t n) {
  if (b->len + n + 1 > b->cap) {
    size_t cap = b->cap ? b->cap : 256;
    while (b->len + n + 1 > cap) cap *= 2;
    char *grown = realloc(b->buf, cap);
    if (!grown) abort();  // out of memory while reporting: nothing sensible left to do
    b->buf = grown;
    b->cap = cap;
  }
  memcpy(b->buf + b->len, s, n);
  b->len += n;
  b->buf[b->len] = 0;
}

static void jb_puts(jbuf_t *b, const char *s) { jb_putn(b, s, strlen(s)); }

static void jb_escaped(jbuf_t *b, const char *s) {
  jb_putn(b, "\"", 1);
  for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
    char tmp[8];
    if (*p == '"' || *p == '\\') {
      tmp[0] = '\\'; tmp[1] = (char)*p;
      jb_putn(b, tmp, 2);
    } else if (*p < 0x20) {
      snprintf(tmp, sizeof tmp, "\\u%04x", *p);
      jb_puts(b, tmp);
    } else {
      jb_putn(b, (const char *)p, 1);
    }
  }
  jb_putn(b, "\"", 1);
}

void jb_begin(jbuf_t *b, const char *type) {
  b->buf = NULL; b->len = b->cap = 0;
  char head[64];
  snprintf(head, sizeof head, "{\"v\":%d,\"type\":", PROTOCOL_VERSION);
  jb_puts(b, head);
  jb_escaped(b, type);
}

void jb_key(jbuf_t *b, const char *key) {
  jb_putn(b, ",", 1);
  jb_escaped(b, key);
  jb_putn(b, ":", 1);
}

void jb_str(jbuf_t *b, const char *key, const char *value) {
  jb_key(b, key);
  if (value) jb_escaped(b, value); else jb_puts(b, "null");
}

void jb_u64(jbuf_t *b, const char *key, uint64_t value) {
  char tmp[32];
  snprintf(tmp, sizeof tmp, "%" PRIu64, value);
  jb_key(b, key);
  jb_puts(b, tmp);
}

void jb_i64(jbuf_t *b, const char *key, int64_t value) {
  char tmp[32];
  snprintf(tmp, sizeof tmp, "%" PRId64, value);
  jb_key(b, key);
  jb_puts(b, tmp);
}

void jb_dbl(jbuf_t *b, const char *key, double value) {
  char tmp[48];
  snprintf(tmp, sizeof tmp, "%.6g", value);
  jb_key(b, key);
  jb_puts(b, tmp);
}

void jb_bool(jbuf_t *b, const char *key, int value) {
  jb_key(b, key);
  jb_puts(b, value ? "true" : "false");
}

void jb_raw(jbuf_t *b, const char *text) { jb_puts(b, text); }

void jb_end_emit(jbuf_t *b) {
  jb_putn(b, "}\n", 2);
  pthread_mutex_lock(&out_lock);
  size_t off = 0;
  while (off < b->len) {
    ssize_t n = write(STDOUT_FILENO, b->buf + off, b->len - off);
    if (n <= 0) break;  // reader gone: keep working, the exit code still tells the story
    off += (size_t)n;
  }
  pthread_mutex_unlock(&out_lock);
  free(b->buf);
  b->buf = NULL; b->len = b->cap = 0;
}

static void emit_coded(const char *type, const char *code, const char *fmt, va_list ap) {
  char message[1024];
  vsnprintf(message, sizeof message, fmt, ap);
  jbuf_t b;
  jb_begin(&b, type);
  jb_str(&b, "code", code);
  jb_str(&b, "message", message);
  jb_end_emit(&b);
  fprintf(stderr, "%s: %s: %s\n", WORKER_NAME, type, message);
}

void emit_warning(const char *code, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  emit_coded("warning", code, fmt, ap);
  va_end(ap);
}

int emit_failure(failure_t failure, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  emit_coded("error", failure.code, fmt, ap);
  va_end(ap);
  return failure.exit;
}

void emit_done(const char *status, int exit_code) {
  jbuf_t b;
  jb_begin(&b, "done");
  jb_str(&b, "status", status);
  jb_i64(&b, "exit_code", exit_code);
  jb_end_emit(&b);
}

void emit_byte_progress(const char *phase, uint64_t jobs, uint64_t done, uint64_t total) {
  jbuf_t b;
  jb_begin(&b, "progress");
  jb_str(&b, "phase", phase);
  jb_u64(&b, "jobs", jobs);
  jb_u64(&b, "done_bytes", done);
  jb_u64(&b, "total_bytes", total);
  jb_end_emit(&b);
}

int emit_end(int rc, int stopped, const char *cleaned) {
  if (stopped && rc == 0) rc = EXIT_INTERRUPTED;
  if (rc == EXIT_INTERRUPTED) emit_failure(FAIL_INTERRUPTED, "stopped by a signal; %s", cleaned);
  emit_done(rc == 0 ? "ok" : rc == EXIT_INTERRUPTED ? "interrupted" : "error", rc);
  return rc;
}

void logf_stderr(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "%s: ", WORKER_NAME);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
}
