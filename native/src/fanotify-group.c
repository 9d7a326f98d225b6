#include "fanotify-group.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/fanotify.h>
#include <unistd.h>

#ifndef FAN_REPORT_FD_ERROR
#define FAN_REPORT_FD_ERROR 0x00002000
#endif

int fanotify_group_open(int dirfd, int *fd_error, char *why, size_t whylen) {
  const unsigned base = FAN_CLASS_NOTIF | FAN_CLOEXEC | FAN_NONBLOCK;
  // The reader never reads through an event's descriptor (it only fstats it), so opening it
  // touches none of the file's times.
  const unsigned event_flags = O_RDONLY | O_LARGEFILE | O_CLOEXEC;
  *fd_error = 1;
  int fd = fanotify_init(base | FAN_REPORT_FD_ERROR, event_flags);
  if (fd < 0 && errno == EINVAL) {  // before Linux 6.13: an unopenable file fails the read instead
    *fd_error = 0;
    fd = fanotify_init(base, event_flags);
  }
  if (fd < 0) {
    int e = errno;
    snprintf(why, whylen, "fanotify_init: %s%s", strerror(e),
             e == EPERM ? " (a filesystem-wide recording needs CAP_SYS_ADMIN: run as root or through the helper)"
             : e == ENOSYS ? " (this kernel was built without fanotify)" : "");
    errno = e;
    return -1;
  }
  // ".": an O_PATH dirfd is not taken with a NULL path.
  if (fanotify_mark(fd, FAN_MARK_ADD | FAN_MARK_FILESYSTEM, FANOTIFY_RECORD_MASK, dirfd, ".") != 0) {
    int e = errno;
    close(fd);
    snprintf(why, whylen, "fanotify_mark(FAN_MARK_FILESYSTEM): %s%s", strerror(e),
             e == EXDEV ? " (this filesystem cannot be marked whole: a btrfs subvolume or an overlay; record its own mount)"
             : e == EINVAL ? " (this kernel has no filesystem-wide marks: Linux 4.20 or later is needed)"
             : e == ENODEV ? " (a filesystem without a device, e.g. a virtual one, cannot be marked)" : "");
    errno = e;
    return -1;
  }
  return fd;
}
