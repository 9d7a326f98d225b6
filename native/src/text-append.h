// Appending formatted text to a fixed buffer: snprintf returns the length it wanted, so a
// running `n += snprintf(buf + n, cap - n, …)` goes past cap once the text is cut, `cap - n`
// wraps to a huge size and the next write runs off the end. This clamps instead: the text is
// cut, never overrun, and *len stays below cap.
#ifndef DD_TEXT_APPEND_H
#define DD_TEXT_APPEND_H

#include <stdarg.h>
#include <stdio.h>

static inline void text_append(char *buf, size_t cap, size_t *len, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static inline void text_append(char *buf, size_t cap, size_t *len, const char *fmt, ...) {
  if (cap == 0 || *len >= cap - 1) return;
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(buf + *len, cap - *len, fmt, ap);
  va_end(ap);
  if (n > 0) *len = (size_t)n < cap - *len ? *len + (size_t)n : cap - 1;
}

#endif
