#include "access-feed.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/fanotify.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define EVENT_BUF (64 * 1024)
#define RECORDS_PER_SEND 512

static volatile sig_atomic_t g_term;
static void on_term(int sig) {
  (void)sig;
  g_term = 1;
}

static int64_t wall_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int access_feed_read_key(int sock, uint8_t key[FILE_IDENTITY_KEY_BYTES], int timeout_ms, char *why, size_t whylen) {
  size_t got = 0;
  while (got < FILE_IDENTITY_KEY_BYTES) {
    struct pollfd p = {.fd = sock, .events = POLLIN};
    int n = poll(&p, 1, timeout_ms);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return snprintf(why, whylen, "the caller sent no key within %d s", timeout_ms / 1000), -1;
    ssize_t r = recv(sock, key + got, FILE_IDENTITY_KEY_BYTES - got, 0);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) return snprintf(why, whylen, "the caller closed the socket before sending the key"), -1;
    got += (size_t)r;
  }
  return 0;
}

static int send_all(int sock, const void *data, size_t len) {
  const char *p = data;
  while (len) {
    ssize_t n = send(sock, p, len, MSG_NOSIGNAL);
    // SIGTERM also ends a send the worker does not read (stopped, or gone without closing).
    if (n < 0 && errno == EINTR && !g_term) continue;
    if (n <= 0) return -1;
    p += n;
    len -= (size_t)n;
  }
  return 0;
}

// Whether the user (whose filesystem identity is in effect) may look up the event's file: the
// path the kernel gives for it, stat'ed with the user's rights, is the same inode. A renamed,
// deleted or hidden file is not.
static int user_sees(int fd, const struct stat *st) {
  char link[64], path[PATH_MAX];
  snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
  ssize_t n = readlink(link, path, sizeof path);
  if (n <= 0 || (size_t)n >= sizeof path || path[0] != '/') return 0;
  path[n] = 0;
  struct stat seen;
  return fstatat(AT_FDCWD, path, &seen, AT_SYMLINK_NOFOLLOW) == 0 && seen.st_dev == st->st_dev && seen.st_ino == st->st_ino;
}

typedef struct {
  int group, sock;
  const uint8_t *key, *fsid;
  access_feed_record_t out[RECORDS_PER_SEND];
  size_t count;
} feed_t;

static int flush(feed_t *f) {
  int rc = f->count ? send_all(f->sock, f->out, f->count * sizeof f->out[0]) : 0;
  f->count = 0;
  return rc;
}

static int put(feed_t *f, access_feed_record_t rec) {
  f->out[f->count++] = rec;
  return f->count == RECORDS_PER_SEND ? flush(f) : 0;
}

static int take(feed_t *f, const struct fanotify_event_metadata *m, int64_t now) {
  const uint32_t kinds = (uint32_t)(m->mask & (FAN_OPEN | FAN_ACCESS | FAN_MODIFY));
  if (m->mask & FAN_Q_OVERFLOW) return put(f, (access_feed_record_t){.hash = 0, .bytes = -1, .t_ms = now, .kinds = FAN_Q_OVERFLOW});
  if (m->fd < 0) return 0;  // the kernel could not open the file (FAN_REPORT_FD_ERROR): nothing to tell
  struct stat st;
  int rc = 0;
  if (kinds && fstat(m->fd, &st) == 0 && S_ISREG(st.st_mode) && user_sees(m->fd, &st))
    rc = put(f, (access_feed_record_t){.hash = file_identity(f->key, f->fsid, m->fd, &st),
                                       .bytes = (int64_t)st.st_blocks * 512,
                                       .t_ms = now,
                                       .kinds = kinds});
  close(m->fd);
  return rc;
}

// Everything the kernel has queued, passed on. Returns 0, or -1 when the socket is gone.
static int drain(feed_t *f) {
  static char buf[EVENT_BUF] __attribute__((aligned(__alignof__(struct fanotify_event_metadata))));
  for (;;) {
    ssize_t len = read(f->group, buf, sizeof buf);
    if (len < 0 && errno == EINTR) continue;
    if (len < 0 && errno == EAGAIN) break;
    if (len < 0) {
      // Before Linux 6.13 a file that cannot be opened fails the read, and that event is gone.
      if (errno == EACCES || errno == EPERM || errno == EROFS || errno == ETXTBSY || errno == ENXIO || errno == ENOENT) continue;
      break;
    }
    if (len == 0) break;
    int64_t now = wall_ms();
    const struct fanotify_event_metadata *m = (const void *)buf;
    while (FAN_EVENT_OK(m, len)) {
      if (m->vers == FANOTIFY_METADATA_VERSION) {
        if (take(f, m, now) != 0) return -1;
      } else if (m->fd >= 0) close(m->fd);
      m = FAN_EVENT_NEXT(m, len);
    }
  }
  return flush(f);
}

int access_feed_run(int group, int sock, const uint8_t key[FILE_IDENTITY_KEY_BYTES], const uint8_t fsid[8], char *why,
                    size_t whylen) {
  struct sigaction sa = {.sa_handler = on_term};
  sigemptyset(&sa.sa_mask);
  sigaction(SIGTERM, &sa, NULL);
  signal(SIGINT, SIG_IGN);
  signal(SIGHUP, SIG_IGN);
  static feed_t f;
  f = (feed_t){.group = group, .sock = sock, .key = key, .fsid = fsid};
  if (send_all(sock, ACCESS_FEED_READY, strlen(ACCESS_FEED_READY)) != 0)
    return snprintf(why, whylen, "the caller went away: %s", strerror(errno)), -1;
  for (;;) {
    struct pollfd p[2] = {{.fd = group, .events = POLLIN}, {.fd = sock, .events = POLLIN}};
    int n = poll(p, 2, 500);
    if (n < 0 && errno != EINTR) return snprintf(why, whylen, "poll: %s", strerror(errno)), -1;
    int ending = g_term;
    if (n > 0 && p[1].revents) {
      char byte;
      ssize_t r = recv(sock, &byte, 1, MSG_DONTWAIT);
      // The worker sends nothing after the key: end of stream is its stop, an error its going away.
      if (r == 0) ending = 1;
      else if (r < 0 && errno != EAGAIN && errno != EINTR) return snprintf(why, whylen, "the caller went away: %s", strerror(errno)), -1;
    }
    if ((n > 0 && p[0].revents) || ending) {
      if (drain(&f) != 0) return snprintf(why, whylen, "the caller went away: %s", strerror(errno)), -1;
    }
    if (ending) return 0;
  }
}
