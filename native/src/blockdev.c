#include "blockdev.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

static int fail(blockdev_status_t *status, blockdev_status_t s, char *why, size_t whylen, const char *fmt,
                const char *a, const char *b) {
  *status = s;
  snprintf(why, whylen, fmt, a, b);
  return -1;
}

static const char *kind_of(mode_t mode) {
  if (S_ISREG(mode)) return "a regular file";
  if (S_ISDIR(mode)) return "a folder";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISLNK(mode)) return "a symbolic link";
  return "not a block device";
}

int blockdev_check_fd(int fd, blockdev_info_t *info, blockdev_status_t *status, char *why, size_t whylen) {
  struct stat st;
  if (fstat(fd, &st) != 0) return fail(status, BLOCKDEV_FAILED, why, whylen, "fstat failed: %s%s", strerror(errno), "");
  if (!S_ISBLK(st.st_mode)) return fail(status, BLOCKDEV_NOT_BLOCK, why, whylen, "it is %s, not a block device%s", kind_of(st.st_mode), "");
  int fl = fcntl(fd, F_GETFL);
  if (fl < 0 || (fl & O_ACCMODE) != O_RDONLY || (fl & O_PATH))
    return fail(status, BLOCKDEV_WRITABLE_FD, why, whylen, "the descriptor is not open read-only for I/O%s%s", "", "");
  uint64_t bytes = 0;
  int sector = 512;
  if (ioctl(fd, BLKGETSIZE64, &bytes) != 0)
    return fail(status, errno == ENXIO || errno == ENODEV ? BLOCKDEV_MISSING : BLOCKDEV_FAILED, why, whylen,
                "cannot read its size: %s%s", strerror(errno), "");
  ioctl(fd, BLKSSZGET, &sector);
  info->bytes = bytes;
  info->sector = sector > 0 ? sector : 512;
  info->rdev = st.st_rdev;
  *status = BLOCKDEV_OK;
  return 0;
}

int blockdev_open_ro(const char *path, int direct, blockdev_info_t *info, blockdev_status_t *status, char *why,
                     size_t whylen) {
  int pfd = open(path, O_PATH | O_NOFOLLOW | O_CLOEXEC);
  if (pfd < 0) {
    int e = errno;
    return fail(status, e == ENOENT || e == ENXIO || e == ENODEV ? BLOCKDEV_MISSING : e == EACCES || e == EPERM ? BLOCKDEV_DENIED : BLOCKDEV_FAILED,
                why, whylen, "%s: %s", path, strerror(e));
  }
  struct stat st = {0};
  if (fstat(pfd, &st) != 0 || !S_ISBLK(st.st_mode)) {
    int e = errno;
    close(pfd);
    if (S_ISLNK(st.st_mode)) return fail(status, BLOCKDEV_SYMLINK, why, whylen, "%s is a symbolic link, not a block device", path, "");
    return fail(status, BLOCKDEV_NOT_BLOCK, why, whylen, "%s is %s, not a block device", path,
                e ? strerror(e) : kind_of(st.st_mode));
  }
  // Reopen the inode we just checked, not the name (which could have been replaced meanwhile).
  char proc[64];
  snprintf(proc, sizeof proc, "/proc/self/fd/%d", pfd);
  int fd = open(proc, O_RDONLY | O_CLOEXEC | O_NOCTTY | (direct ? O_DIRECT : 0));
  int e = errno;
  close(pfd);
  if (fd < 0)
    return fail(status, e == ENOENT || e == ENXIO || e == ENODEV ? BLOCKDEV_MISSING : e == EACCES || e == EPERM ? BLOCKDEV_DENIED : BLOCKDEV_FAILED,
                why, whylen, "%s: %s", path, strerror(e));
  if (blockdev_check_fd(fd, info, status, why, whylen) != 0 || info->rdev != st.st_rdev) {
    if (*status == BLOCKDEV_OK) fail(status, BLOCKDEV_FAILED, why, whylen, "%s changed while it was opened%s", path, "");
    close(fd);
    return -1;
  }
  return fd;
}
