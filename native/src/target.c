#include "target.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <linux/magic.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "ndjson.h"
#include "util.h"

// The signal handler may only touch these: a fixed buffer and an atomic flag.
static char signal_unlink_path[PATH_MAX];
static volatile sig_atomic_t signal_unlink_armed;

void target_unlink_from_signal(void) {
  if (signal_unlink_armed) {
    signal_unlink_armed = 0;
    unlink(signal_unlink_path);
  }
}

static void arm_signal_unlink(const char *path) {
  sigset_t all, old;
  sigfillset(&all);
  pthread_sigmask(SIG_BLOCK, &all, &old);
  snprintf(signal_unlink_path, sizeof signal_unlink_path, "%s", path);
  signal_unlink_armed = 1;
  pthread_sigmask(SIG_SETMASK, &old, NULL);
}

// Returns 1 if the unlink happened here (not already done by the signal handler).
static int disarm_and_unlink(void) {
  sigset_t all, old;
  sigfillset(&all);
  pthread_sigmask(SIG_BLOCK, &all, &old);
  int armed = signal_unlink_armed;
  signal_unlink_armed = 0;
  if (armed) unlink(signal_unlink_path);
  pthread_sigmask(SIG_SETMASK, &old, NULL);
  return armed;
}

static const char *fs_name(long type) {
  switch (type) {
    case EXT4_SUPER_MAGIC: return "ext2/3/4";
    case TMPFS_MAGIC: return "tmpfs";
    case RAMFS_MAGIC: return "ramfs";
    case BTRFS_SUPER_MAGIC: return "btrfs";
    case XFS_SUPER_MAGIC: return "xfs";
    case 0x2fc12fc1: return "zfs";
    case 0x65735546: return "fuse";
    case OVERLAYFS_SUPER_MAGIC: return "overlayfs";
    case NFS_SUPER_MAGIC: return "nfs";
    case 0x4d44: return "vfat";
    case 0x2011bab0: return "exfat";
    default: return "other";
  }
}

static int is_ram_fs(long type) { return type == TMPFS_MAGIC || type == RAMFS_MAGIC; }

// DiskDelta's own throwaway devices (electron/core/crypto/throwaway.ts): a dm-crypt mapping
// named diskdelta-crypt-* or a loop device over a file named .diskdelta-crypt-*. They hold
// only DiskDelta's own test file, so they may be written; every other device is read-only.
static int is_own_throwaway(dev_t rdev) {
  char p[128], buf[4096];
  snprintf(p, sizeof p, "/sys/dev/block/%u:%u/dm/name", major(rdev), minor(rdev));
  FILE *f = fopen(p, "r");
  if (f) {
    int own = fgets(buf, sizeof buf, f) && strncmp(buf, THROWAWAY_DM_PREFIX, strlen(THROWAWAY_DM_PREFIX)) == 0;
    fclose(f);
    return own;
  }
  snprintf(p, sizeof p, "/sys/dev/block/%u:%u/loop/backing_file", major(rdev), minor(rdev));
  f = fopen(p, "r");
  if (!f) return 0;
  int own = 0;
  if (fgets(buf, sizeof buf, f)) {
    const char *base = strrchr(buf, '/');
    own = base && strncmp(base + 1, THROWAWAY_FILE_PREFIX, strlen(THROWAWAY_FILE_PREFIX)) == 0;
  }
  fclose(f);
  return own;
}

static int open_blockdev(target_t *t, const char *path, const target_request_t *req) {
  int flags = (req->needs_write ? O_RDWR : O_RDONLY) | O_CLOEXEC | (req->buffered ? 0 : O_DIRECT);
  t->fd = open(path, flags);
  struct stat st;
  // Checked on the opened descriptor (no race with a renamed path); nothing was written yet.
  if (req->needs_write && t->fd >= 0 && (fstat(t->fd, &st) != 0 || !is_own_throwaway(st.st_rdev))) {
    close(t->fd);
    t->fd = -1;
    return emit_failure(FAIL_WRITE_ON_BLOCK_DEVICE,
                        "refusing to write to the block device %s: DiskDelta opens devices read-only, always "
                        "(only its own throwaway loop/dm-crypt devices over its own test file are written). "
                        "Run write tests on a folder of a filesystem on that disk instead", path);
  }
  if (t->fd < 0) {
    int e = errno;
    return emit_failure(e == EACCES || e == EPERM ? FAIL_PERMISSION : FAIL_TARGET_UNUSABLE,
                        "cannot open the block device %s %s: %s%s", path, req->needs_write ? "for writing" : "read-only", strerror(e),
                        e == EACCES || e == EPERM ? " (reading a raw device needs root or membership of the disk group)" : "");
  }
  uint64_t bytes = 0;
  int lbs = 512;
  if (ioctl(t->fd, BLKGETSIZE64, &bytes) != 0 || bytes == 0) {
    return emit_failure(FAIL_TARGET_UNUSABLE, "cannot read the size of %s: %s", path,
                        bytes == 0 ? "the device is empty" : strerror(errno));
  }
  ioctl(t->fd, BLKSSZGET, &lbs);
  t->is_blockdev = 1;
  t->direct = !req->buffered;
  t->align = lbs > 4096 ? (unsigned)lbs : 4096;
  // Whole MiB keep every block size of the tests aligned; a device smaller than 1 MiB is
  // used down to its last aligned block.
  t->size = req->size < bytes ? req->size : bytes;
  t->size -= t->size % (1024 * 1024);
  if (t->size == 0) t->size = bytes - bytes % t->align;
  snprintf(t->fs_type, sizeof t->fs_type, "block-device");
  return 0;
}

static int open_reused_file(target_t *t, const char *file, const target_request_t *req) {
  const char *base = strrchr(file, '/');
  base = base ? base + 1 : file;
  if (strncmp(base, TESTFILE_PREFIX, strlen(TESTFILE_PREFIX)) != 0) {
    return emit_failure(FAIL_USAGE, "--file only accepts a test file made by `prepare` (named %s*%s): %s",
                        TESTFILE_PREFIX, TESTFILE_SUFFIX, file);
  }
  t->fd = open(file, O_RDWR | O_NOFOLLOW | O_CLOEXEC | (req->buffered ? 0 : O_DIRECT));
  struct stat st;
  if (t->fd < 0 || fstat(t->fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    int e = errno;
    return emit_failure(e == EACCES || e == EPERM ? FAIL_PERMISSION : FAIL_TARGET_UNUSABLE,
                        "cannot open the prepared test file %s: %s", file, strerror(e));
  }
  t->size = (uint64_t)st.st_size < req->size ? (uint64_t)st.st_size : req->size;
  t->direct = !req->buffered;
  t->align = 4096;
  snprintf(t->file_path, sizeof t->file_path, "%s", file);
  return 0;
}

int target_open(target_t *t, const char *path, const target_request_t *req) {
  memset(t, 0, sizeof *t);
  t->fd = -1;
  t->path = path;
  if (req->reuse) return open_reused_file(t, req->reuse, req);

  struct stat st;
  if (stat(path, &st) != 0) {
    int e = errno;
    if (e == EACCES || e == EPERM)
      return emit_failure(FAIL_PERMISSION, "the target %s cannot be reached: %s. Choose a folder you may enter", path, strerror(e));
    return emit_failure(FAIL_TARGET_MISSING, "the target %s does not exist: %s. Give an existing folder or block device",
                        path, strerror(e));
  }
  if (S_ISBLK(st.st_mode)) return open_blockdev(t, path, req);
  if (!S_ISDIR(st.st_mode)) {
    return emit_failure(FAIL_TARGET_NOT_FOLDER,
                        "the target %s is %s, not a folder or a block device. Give the folder to test in "
                        "(a test file is created and removed there)",
                        path, S_ISREG(st.st_mode) ? "a regular file" : "a special file");
  }

  struct statfs sfs;
  if (statfs(path, &sfs) == 0) {
    snprintf(t->fs_type, sizeof t->fs_type, "%s", fs_name((long)sfs.f_type));
    if (is_ram_fs((long)sfs.f_type) && !req->buffered) {
      return emit_failure(FAIL_NO_DIRECT_IO,
                          "%s is on %s, which keeps files in memory: O_DIRECT cannot reach a disk there and the "
                          "numbers would be RAM speed. Test a folder on a disk, or pass --buffered to measure "
                          "anyway (every result is then flagged)",
                          path, fs_name((long)sfs.f_type));
    }
  }

  struct statvfs vfs;
  if (statvfs(path, &vfs) == 0) {
    if (vfs.f_flag & ST_RDONLY) {
      return emit_failure(FAIL_TARGET_NOT_WRITABLE,
                          "%s is on a read-only filesystem: no test file can be created there. Choose a writable "
                          "folder, or give the block device for read-only tests", path);
    }
    uint64_t avail = (uint64_t)vfs.f_bavail * vfs.f_frsize;
    uint64_t reserve = 16ull * 1024 * 1024;  // leave the filesystem some room to breathe
    if (avail < req->size + reserve) {
      return emit_failure(FAIL_NO_SPACE,
                          "not enough free space in %s: the test file needs %.1f MiB (+16 MiB headroom), "
                          "%.1f MiB are free. Pass a smaller --size or free some space",
                          path, req->size / 1048576.0, avail / 1048576.0);
    }
  }

  uint64_t tag;
  if (syscall(SYS_getrandom, &tag, sizeof tag, 0) != (long)sizeof tag) tag = now_ns();
  snprintf(t->file_path, sizeof t->file_path, "%s/%s%d-%016llx%s", path, TESTFILE_PREFIX, (int)getpid(),
           (unsigned long long)tag, TESTFILE_SUFFIX);
  int fd = open(t->file_path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (fd < 0) {
    int e = errno;
    t->file_path[0] = 0;
    failure_t f = e == EROFS ? FAIL_TARGET_NOT_WRITABLE
                  : e == EACCES || e == EPERM ? FAIL_PERMISSION
                  : e == ENOSPC ? FAIL_NO_SPACE : FAIL_TARGET_UNUSABLE;
    return emit_failure(f, "cannot create a test file in %s: %s. %s", path, strerror(e),
                        e == EROFS ? "The filesystem is read-only: choose a writable folder"
                        : e == EACCES || e == EPERM ? "Choose a folder you may write to"
                        : e == ENOSPC ? "The disk is full: free some space" : "Check the folder");
  }
  t->fd = fd;
  t->owns_file = 1;
  arm_signal_unlink(t->file_path);
  // The lock tells a later run that this file is alive; once we die it is free and the
  // file is stale (see sweep_stale_files).
  flock(fd, LOCK_EX | LOCK_NB);

  if (!req->buffered) {
    int flags = fcntl(fd, F_GETFL);
    if (fcntl(fd, F_SETFL, flags | O_DIRECT) != 0) {
      return emit_failure(FAIL_NO_DIRECT_IO,
                          "the filesystem under %s (%s) refuses O_DIRECT, so the page cache would be measured, "
                          "not the disk. Pass --buffered to measure anyway (every result is then flagged)",
                          path, t->fs_type);
    }
    t->direct = 1;
  }
  t->align = 4096;
  t->size = req->size - req->size % (1024 * 1024);
  if (t->size == 0) t->size = req->size - req->size % t->align;
  int rc = fallocate(fd, 0, 0, (off_t)t->size);
  if (rc != 0 && errno == ENOSPC) {
    return emit_failure(FAIL_NO_SPACE, "the disk under %s is full: could not reserve %.1f MiB for the test file. "
                        "Pass a smaller --size or free some space", path, t->size / 1048576.0);
  }
  return 0;
}

int target_fill(target_t *t, void (*progress)(uint64_t done, uint64_t total)) {
  const size_t chunk = 4u * 1024 * 1024;
  void *buf = NULL;
  if (posix_memalign(&buf, t->align, chunk) != 0) {
    return emit_failure(FAIL_INTERNAL, "cannot allocate the fill buffer");
  }
  rng_t rng;
  rng_seed(&rng, now_ns());
  extern volatile sig_atomic_t g_stop;
  uint64_t done = 0;
  int rc = 0;
  while (done < t->size && !g_stop) {
    size_t n = t->size - done < chunk ? (size_t)(t->size - done) : chunk;
    fill_random(&rng, buf, n);  // fresh data per chunk: nothing to compress or deduplicate
    ssize_t w = pwrite(t->fd, buf, n, (off_t)done);
    if (w < 0 || (size_t)w != n) {
      int e = w < 0 ? errno : ENOSPC;
      rc = emit_failure(e == ENOSPC ? FAIL_NO_SPACE : FAIL_IO_ERROR, "writing the test file %s failed at %.1f MiB: %s%s",
                        t->file_path, done / 1048576.0, strerror(e), e == ENOSPC ? ". Free some space or pass a smaller --size" : "");
      break;
    }
    done += n;
    if (progress) progress(done, t->size);
  }
  if (rc == 0 && !g_stop && fdatasync(t->fd) != 0) {
    rc = emit_failure(FAIL_IO_ERROR, "flushing the test file failed: %s", strerror(errno));
  }
  free(buf);
  return rc;
}

void target_keep_file(target_t *t) {
  sigset_t all, old;
  sigfillset(&all);
  pthread_sigmask(SIG_BLOCK, &all, &old);
  signal_unlink_armed = 0;
  pthread_sigmask(SIG_SETMASK, &old, NULL);
  t->owns_file = 0;
}

void target_close(target_t *t) {
  if (t->owns_file) {
    disarm_and_unlink();
    t->owns_file = 0;
  }
  if (t->fd >= 0) close(t->fd);
  t->fd = -1;
}

int sweep_stale_files(const char *dir) {
  DIR *d = opendir(dir);
  if (!d) return 0;
  int removed = 0;
  struct dirent *e;
  size_t plen = strlen(TESTFILE_PREFIX), slen = strlen(TESTFILE_SUFFIX);
  while ((e = readdir(d)) != NULL) {
    size_t len = strlen(e->d_name);
    if (len <= plen + slen || strncmp(e->d_name, TESTFILE_PREFIX, plen) != 0 ||
        strcmp(e->d_name + len - slen, TESTFILE_SUFFIX) != 0)
      continue;
    int fd = openat(dirfd(d), e->d_name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) continue;
    struct stat st;
    // A live worker holds the lock on its file. A file nobody locks belongs to a run that was
    // killed — unless it is empty and brand new: its creator takes the lock right after
    // creating it, before giving it any size.
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && flock(fd, LOCK_EX | LOCK_NB) == 0 &&
        (st.st_size > 0 || time(NULL) - st.st_ctime >= 2)) {
      if (unlinkat(dirfd(d), e->d_name, 0) == 0) {
        removed++;
        emit_warning("stale-file-removed", "removed %s/%s, a test file left by a run that was killed", dir, e->d_name);
      }
    }
    close(fd);
  }
  closedir(d);
  return removed;
}
