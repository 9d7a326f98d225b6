// Passing one descriptor over a Unix socket (SCM_RIGHTS) with a short text: the helper sends
// the device it opened, the worker receives it. Both link fdpass.c.
#ifndef DD_FDPASS_H
#define DD_FDPASS_H

#include <stddef.h>
#include <sys/types.h>

// Sends text (NUL-free, short) with fd attached. Returns 0 or -1 (errno set).
int fdpass_send(int sock, int fd, const char *text);
// Receives one message: *fd is the descriptor or -1 when none came (the sender closed without
// one). text is NUL-terminated. Returns bytes of text, 0 at end of stream, -1 on error.
// A received descriptor is made close-on-exec.
ssize_t fdpass_recv(int sock, int *fd, char *text, size_t textlen);

#endif
