#include "target.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
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

#include "blockdev.h"
#include "elevate.h"
#include "fs-kinds.h"
#include "ndjson.h"
#include "own-tree.h"
#include "util.h"

// The signal handler may only touch these: the target folder's descriptor, the file's name in it
// and its identity (a fixed buffer and plain numbers), and an atomic flag. The file is removed
// through the folder's descriptor, and only while the name still is our file: nothing is
// resolved from a path again, so a target folder renamed or replaced meanwhile is not followed.
static int signal_dir_fd = -1;
static char signal_name[128];
static dev_t signal_dev;
static ino_t signal_ino;
static volatile sig_atomic_t signal_unlink_armed;

static void unlink_ours(void) {  // async-signal-safe: fstatat and unlinkat are
  struct stat st;
  if (fstatat(signal_dir_fd, signal_name, &st, AT_SYMLINK_NOFOLLOW) == 0 && st.st_dev == signal_dev && st.st_ino == signal_ino)
    unlinkat(signal_dir_fd, signal_name, 0);
}

void target_unlink_from_signal(void) {
  if (signal_unlink_armed) {
    signal_unlink_armed = 0;
    unlink_ours();
  }
}

static void arm_signal_unlink(int dir_fd, const char *name, const struct stat *st) {
  sigset_t all, old;
  sigfillset(&all);
  pthread_sigmask(SIG_BLOCK, &all, &old);
  signal_dir_fd = dir_fd;
  snprintf(signal_name, sizeof signal_name, "%s", name);
  signal_dev = st->st_dev;
  signal_ino = st->st_ino;
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
  if (armed) unlink_ours();
  pthread_sigmask(SIG_SETMASK, &old, NULL);
  return armed;
}

const char *fs_name(long type) {
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

static int is_ram_fs(long type) { return ram_fs_name(type) != NULL; }

// Why the kernel said no to opening `path`, from facts rather than a guess: who we run as,
// who owns the path and its mode. As root (or when the mode allows us) permissions are not
// the cause, so the message says what else refuses: a device cgroup, a security module,
// lockdown, an immutable attribute. `remedy` ends the message for a folder; a device's is
// worked out here from its mode.
static void explain_denied(char *buf, size_t n, const char *path, int e, const char *remedy) {
  uid_t uid = geteuid();
  struct passwd *pw = getpwuid(uid);
  char who[96];
  snprintf(who, sizeof who, "uid %d (%s)", (int)uid, pw ? pw->pw_name : "no name");
  struct stat st;
  if (stat(path, &st) != 0) {
    // Not even its owner and mode can be read: a folder on the way is closed to us.
    snprintf(buf, n, "the kernel said %s (%s) to %s, who may not look inside a folder on the way to %s. %s",
             strerrorname_np(e) ? strerrorname_np(e) : "?", strerror(e), who, path,
             remedy ? remedy : "Run as root");
    return;
  }
  struct passwd *owner = getpwuid(st.st_uid);
  struct group *gr = getgrgid(st.st_gid);
  char group[64];
  snprintf(group, sizeof group, "%s", gr ? gr->gr_name : "?");
  int in_group = getegid() == st.st_gid;
  gid_t groups[256];
  int count = getgroups(256, groups);
  for (int i = 0; i < count && !in_group; i++) in_group = groups[i] == st.st_gid;
  char facts[256];
  snprintf(facts, sizeof facts, "%s is %s:%s, mode %04o", path, owner ? owner->pw_name : "?", group,
           (unsigned)(st.st_mode & 07777));
  const char *name = strerrorname_np(e) ? strerrorname_np(e) : "?";
  if (uid == 0) {
    snprintf(buf, n,
             "the kernel said %s (%s) to root (uid 0), so file permissions are not the cause (%s): something "
             "above them refuses it: %s",
             name, strerror(e), facts,
             S_ISBLK(st.st_mode) ? "a container's device cgroup (devices.deny), a security module (SELinux, "
                                   "AppArmor) or kernel lockdown. Run DiskDelta where this device is allowed"
                                 : "an immutable attribute (lsattr), a security module (SELinux, AppArmor) or a "
                                   "read-only bind mount. Choose another folder");
  } else if (S_ISBLK(st.st_mode) && (st.st_mode & S_IRGRP) && !in_group) {
    snprintf(buf, n,
             "the kernel said %s (%s) to %s; %s, and this process is not in group %s. Run as root, let "
             "DiskDelta ask for it with --elevate, or join that group (usermod -aG %s $USER, then log in again)",
             name, strerror(e), who, facts, group, group);
  } else if (S_ISBLK(st.st_mode)) {
    snprintf(buf, n, "the kernel said %s (%s) to %s; %s%s, so only its owner may open it. Run as root, or let "
             "DiskDelta ask for it with --elevate", name,
             strerror(e), who, facts, in_group ? ", and its group may not read it" : "");
  } else {
    snprintf(buf, n, "the kernel said %s (%s) to %s; %s, and this process is %sin group %s. %s", name, strerror(e),
             who, facts, in_group ? "" : "not ", group, remedy);
  }
}

// Where the read-only descriptor of a block device comes from: opened here (the user may read
// the device), inherited (--fd), or passed back by the privileged helper (--helper).
static int blockdev_fd(const char *path, const struct stat *st, const target_request_t *req, blockdev_info_t *info) {
  blockdev_status_t status;
  char why[PATH_MAX + 128];
  if (!req->fd && !req->helper && !req->fd_from) {
    char resolved[PATH_MAX];
    if (!realpath(path, resolved)) snprintf(resolved, sizeof resolved, "%s", path);
    int fd = blockdev_open_ro(resolved, !req->buffered, info, &status, why, sizeof why);
    int e = errno;
    if (fd < 0 && status == BLOCKDEV_DENIED) {
      // Said from facts: "needs root" was printed to root, refused by a device cgroup.
      char denied[768];
      explain_denied(denied, sizeof denied, path, e == EPERM || e == EACCES ? e : EACCES, NULL);
      return -emit_failure(FAIL_PERMISSION, "cannot open the block device %s read-only (O_RDONLY%s): %s", path,
                           req->buffered ? "" : "|O_DIRECT", denied);
    }
    if (fd < 0)
      return -emit_failure(status == BLOCKDEV_MISSING ? FAIL_DEVICE_VANISHED : FAIL_TARGET_UNUSABLE,
                           "cannot open the block device %s read-only: %s", path, why);
    return fd;
  }
  int fd = req->fd;
  if (req->helper) {
    char resolved[PATH_MAX];
    // The helper accepts /dev/NAME only: links such as /dev/disk/by-id/… are resolved here.
    if (!realpath(path, resolved)) return -emit_failure(FAIL_DEVICE_VANISHED, "%s went away: %s", path, strerror(errno));
    int rc = elevate_open_device(req->helper, resolved, &fd);
    if (rc) return -rc;
  } else if (req->fd_from) {
    int rc = elevate_fd_from(req->fd_from, &fd);
    if (rc) return -rc;
  }
  if (blockdev_check_fd(fd, info, &status, why, sizeof why) != 0 || info->rdev != st->st_rdev)
    return -emit_failure(FAIL_BAD_FD, "descriptor %d is not a read-only descriptor of %s: %s", fd, path,
                         status == BLOCKDEV_OK ? "it is another device" : why);
  int fl = fcntl(fd, F_GETFL);
  if (fcntl(fd, F_SETFL, req->buffered ? fl & ~O_DIRECT : fl | O_DIRECT) != 0)
    return -emit_failure(FAIL_NO_DIRECT_IO, "cannot switch O_DIRECT on the descriptor of %s: %s", path, strerror(errno));
  return fd;
}

// DiskDelta's own throwaway devices (electron/node/crypto/throwaway.ts): a dm-crypt mapping
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

// Our own throwaway device, opened for writing; checked again on the opened descriptor.
static int open_own_throwaway(target_t *t, const char *path) {
  struct stat st;
  t->fd = open(path, O_RDWR | O_CLOEXEC | O_DIRECT);
  if (t->fd < 0 || fstat(t->fd, &st) != 0 || !S_ISBLK(st.st_mode) || !is_own_throwaway(st.st_rdev)) {
    if (t->fd >= 0) close(t->fd);
    t->fd = -1;
    return emit_failure(FAIL_WRITE_ON_BLOCK_DEVICE, "refusing to write to the block device %s: it is not DiskDelta's own throwaway device", shown_path(path));
  }
  uint64_t bytes = 0;
  if (ioctl(t->fd, BLKGETSIZE64, &bytes) != 0 || bytes == 0) return emit_failure(FAIL_TARGET_UNUSABLE, "cannot read the size of %s", shown_path(path));
  t->is_blockdev = 1;
  t->direct = 1;
  t->align = 4096;
  t->size = bytes - bytes % (1024 * 1024);
  snprintf(t->fs_type, sizeof t->fs_type, "block-device");
  return 0;
}

static int open_blockdev(target_t *t, const char *path, const struct stat *st, const target_request_t *req) {
  if (req->needs_write && is_own_throwaway(st->st_rdev)) return open_own_throwaway(t, path);
  if (req->needs_write) {
    return emit_failure(FAIL_WRITE_ON_BLOCK_DEVICE,
                        "refusing to write to the block device %s: DiskDelta opens devices read-only, always "
                        "(only its own throwaway loop/dm-crypt devices over its own test file are written). "
                        "Run write tests on a folder of a filesystem on that disk instead", shown_path(path));
  }
  blockdev_info_t info;
  int fd = blockdev_fd(path, st, req, &info);
  if (fd < 0) return -fd;
  t->fd = fd;
  if (info.bytes == 0) return emit_failure(FAIL_TARGET_UNUSABLE, "cannot measure %s: the device is empty", shown_path(path));
  uint64_t bytes = info.bytes;
  t->is_blockdev = 1;
  t->direct = !req->buffered;
  t->align = info.sector > 4096 ? (unsigned)info.sector : 4096;
  // Whole MiB keep every block size of the tests aligned; a device smaller than 1 MiB is
  // used down to its last aligned block.
  t->size = req->size < bytes ? req->size : bytes;
  t->size -= t->size % (1024 * 1024);
  if (t->size == 0) t->size = bytes - bytes % t->align;
  snprintf(t->fs_type, sizeof t->fs_type, "block-device");
  return 0;
}

// --file names a file to measure in place, and write tests write into it: it must be a test
// file of ours in every way that matters, not just by name. A hard link to someone's file under
// our name pattern, a file elsewhere, another user's file or a device node is refused before
// anything is opened for writing.
static int open_reused_file(target_t *t, const char *file, const char *target, const target_request_t *req) {
  const char *base = strrchr(file, '/');
  base = base ? base + 1 : file;
  if (strncmp(base, TESTFILE_PREFIX, strlen(TESTFILE_PREFIX)) != 0) {
    return emit_failure(FAIL_USAGE, "--file only accepts a test file made by `prepare` (named %s*%s): %s",
                        TESTFILE_PREFIX, TESTFILE_SUFFIX, shown_path(file));
  }
  struct stat st;
  if (lstat(file, &st) != 0) {
    int e = errno;
    return emit_failure(e == EACCES || e == EPERM ? FAIL_PERMISSION : FAIL_TARGET_UNUSABLE,
                        "cannot use the prepared test file %s: %s", shown_path(file), strerror(e));
  }
  const char *why = !S_ISREG(st.st_mode) ? (S_ISLNK(st.st_mode) ? "it is a symbolic link" : "it is not a regular file (a device node, FIFO or folder)")
                    : st.st_nlink != 1 ? "it has more than one hard link: another name shares its data"
                    : st.st_uid != geteuid() ? "it belongs to another user"
                    : NULL;
  // Inside --target: the folder holding the file is the target folder itself.
  char *real_file = why ? NULL : realpath(file, NULL);
  char *real_target = why ? NULL : realpath(target, NULL);
  if (!why) {
    char *slash = real_file ? strrchr(real_file, '/') : NULL;
    if (slash) *slash = 0;
    if (!real_file || !real_target || strcmp(real_file, real_target) != 0) why = "it is not inside --target";
  }
  free(real_file), free(real_target);
  if (why) {
    return emit_failure(FAIL_USAGE, "--file %s is refused: %s. Only a file made by `prepare` in --target is reused",
                        shown_path(file), why);
  }
  t->fd = open(file, O_RDWR | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | (req->buffered ? 0 : O_DIRECT));
  struct stat now;
  if (t->fd < 0 || fstat(t->fd, &now) != 0) {
    int e = errno;
    return emit_failure(e == EACCES || e == EPERM ? FAIL_PERMISSION : FAIL_TARGET_UNUSABLE,
                        "cannot open the prepared test file %s: %s", shown_path(file), strerror(e));
  }
  if (now.st_dev != st.st_dev || now.st_ino != st.st_ino) {
    return emit_failure(FAIL_USAGE, "--file %s was replaced while it was being opened; nothing was written", shown_path(file));
  }
  t->size = (uint64_t)now.st_size < req->size ? (uint64_t)now.st_size : req->size;
  t->direct = !req->buffered;
  t->align = 4096;
  snprintf(t->file_path, sizeof t->file_path, "%s", file);
  return 0;
}

unsigned target_probe_min_direct(const target_t *t) {
  if (!t->direct || t->size < 4096) return 0;
  void *buf = NULL;
  if (posix_memalign(&buf, 4096, 4096) != 0) return 0;
  unsigned found = 0;
  // A 512 B O_DIRECT read fails with EINVAL on a 4Kn disk: the first size read is the block.
  for (unsigned size = 512; size <= 4096 && !found; size *= 2)
    if (pread(t->fd, buf, size, 0) == (ssize_t)size) found = size;
  free(buf);
  return found;
}

int target_open(target_t *t, const char *path, const target_request_t *req) {
  memset(t, 0, sizeof *t);
  t->fd = t->dir_fd = -1;
  t->path = path;
  if (req->device_only && req->reuse) return emit_failure(FAIL_USAGE, "--file is for a folder target; this verb reads a block device only");
  if (req->reuse) return open_reused_file(t, req->reuse, path, req);

  struct stat st;
  if (stat(path, &st) != 0) {
    int e = errno;
    if (e == EACCES || e == EPERM) {  // it may well exist: we may not look
      char why[768];
      explain_denied(why, sizeof why, path, e, "Choose a folder you may enter, or run as a user who may");
      return emit_failure(FAIL_PERMISSION, "cannot reach the target %s: %s", shown_path(path), why);
    }
    return emit_failure(FAIL_TARGET_MISSING, "the target %s does not exist: %s. Give an existing folder or block device",
                        shown_path(path), strerror(e));
  }
  if (S_ISBLK(st.st_mode)) return open_blockdev(t, path, &st, req);
  // Here, in the one stat the open goes by: a separate stat before target_open would leave a
  // window in which a folder swapped in gets a test file made in it.
  if (req->device_only)
    return emit_failure(FAIL_USAGE, "this verb reads a whole disk: %s is not a block device; give one (/dev/sdb)", shown_path(path));
  if (req->fd || req->helper || req->fd_from)
    return emit_failure(FAIL_USAGE, "--fd, --fd-from and --helper are for a block device target; %s is not one", shown_path(path));
  if (!S_ISDIR(st.st_mode)) {
    return emit_failure(FAIL_TARGET_NOT_FOLDER,
                        "the target %s is %s, not a folder or a block device. Give the folder to test in "
                        "(a test file is created and removed there)",
                        shown_path(path), S_ISREG(st.st_mode) ? "a regular file" : "a special file");
  }

  struct statfs sfs;
  // (statvfs says "0 bytes free" on a virtual filesystem, which would otherwise read as a full disk.)
  if (statfs(path, &sfs) == 0) {
    const char *virtual_fs = virtual_fs_name((long)sfs.f_type);
    if (virtual_fs) {
      return emit_failure(FAIL_TARGET_VIRTUAL_FS,
                          "%s is on %s, a virtual filesystem the kernel makes up: there is no disk under it to measure. "
                          "Give a folder on a disk (for example your home folder)", shown_path(path), virtual_fs);
    }
    snprintf(t->fs_type, sizeof t->fs_type, "%s", fs_name((long)sfs.f_type));
    if (is_ram_fs((long)sfs.f_type) && !req->buffered) {
      return emit_failure(FAIL_NO_DIRECT_IO,
                          "%s is on %s, which keeps files in memory: O_DIRECT cannot reach a disk there and the "
                          "numbers would be RAM speed. Test a folder on a disk, or allow page-cache I/O to measure "
                          "anyway (every result is then flagged)",
                          shown_path(path), fs_name((long)sfs.f_type));
    }
  }

  struct statvfs vfs;
  if (statvfs(path, &vfs) == 0) {
    if (vfs.f_flag & ST_RDONLY) {
      return emit_failure(FAIL_TARGET_NOT_WRITABLE,
                          "%s is on a read-only filesystem: no test file can be created there. Choose a writable "
                          "folder, or give the block device for read-only tests", shown_path(path));
    }
    uint64_t avail = (uint64_t)vfs.f_bavail * vfs.f_frsize;
    uint64_t reserve = 16ull * 1024 * 1024;  // leave the filesystem some room to breathe
    if (avail < req->size + reserve) {
      return emit_failure(FAIL_NO_SPACE,
                          "not enough free space in %s: the test file needs %s (+16 MiB headroom), "
                          "%s are free. Choose a smaller test size or free some space",
                          shown_path(path), shown_bytes(req->size), shown_bytes(avail));
    }
  }

  // The file is made, checked and removed through this descriptor of the folder: the path is
  // not resolved again (a folder renamed or swapped for a link meanwhile is not followed).
  t->dir_fd = open(path, O_PATH | O_DIRECTORY | O_CLOEXEC);
  uint64_t tag;
  if (syscall(SYS_getrandom, &tag, sizeof tag, 0) != (long)sizeof tag) tag = now_ns();
  char name[64];
  snprintf(name, sizeof name, "%s%d-%016llx%s", TESTFILE_PREFIX, (int)getpid(), (unsigned long long)tag, TESTFILE_SUFFIX);
  snprintf(t->file_path, sizeof t->file_path, "%s/%s", path, name);
  int fd = t->dir_fd < 0 ? -1 : openat(t->dir_fd, name, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (fd < 0) {
    int e = errno;
    t->file_path[0] = 0;
    failure_t f = e == EROFS ? FAIL_TARGET_NOT_WRITABLE
                  : e == EACCES || e == EPERM ? FAIL_PERMISSION
                  : e == ENOSPC ? FAIL_NO_SPACE : FAIL_TARGET_UNUSABLE;
    if (e == EACCES || e == EPERM) {
      char why[768];
      explain_denied(why, sizeof why, path, e, "Choose a folder you may write to, or run as its owner");
      return emit_failure(f, "cannot create a test file in %s: %s", shown_path(path), why);
    }
    return emit_failure(f, "cannot create a test file in %s: %s. %s", shown_path(path), strerror(e),
                        e == EROFS ? "The filesystem is read-only: choose a writable folder"
                        : e == ENOSPC ? "The disk is full: free some space" : "Check the folder");
  }
  t->fd = fd;
  t->owns_file = 1;
  struct stat made;
  if (fstat(fd, &made) != 0) {
    int e = errno;
    unlinkat(t->dir_fd, name, 0);  // just made by us, under a name nobody else could have taken (O_EXCL)
    t->owns_file = 0;
    return emit_failure(FAIL_TARGET_UNUSABLE, "cannot look at the new test file in %s: %s", shown_path(path), strerror(e));
  }
  arm_signal_unlink(t->dir_fd, name, &made);
  // Exactly 0600 whatever the umask: the sweep takes no other mode for a file of ours.
  fchmod(fd, 0600);
  // The lock tells a later run that this file is alive; once we die it is free and the
  // file is stale (see sweep_stale_files). Without it a later run could take it for stale.
  if (flock(fd, LOCK_EX | LOCK_NB) != 0)
    return emit_failure(FAIL_TARGET_UNUSABLE, "cannot lock the test file in %s (%s): without the lock another run could take "
                        "it for a killed run's. Choose a folder on a filesystem with file locks", shown_path(path), strerror(errno));

  if (!req->buffered) {
    int flags = fcntl(fd, F_GETFL);
    if (fcntl(fd, F_SETFL, flags | O_DIRECT) != 0) {
      return emit_failure(FAIL_NO_DIRECT_IO,
                          "the filesystem under %s (%s) refuses O_DIRECT, so the page cache would be measured, "
                          "not the disk. Allow page-cache I/O to measure anyway (every result is then flagged)",
                          shown_path(path), t->fs_type);
    }
    t->direct = 1;
  }
  t->align = 4096;
  t->size = req->size - req->size % (1024 * 1024);
  if (t->size == 0) t->size = req->size - req->size % t->align;
  int rc = fallocate(fd, 0, 0, (off_t)t->size);
  if (rc != 0 && errno == ENOSPC) {
    return emit_failure(FAIL_NO_SPACE, "the disk under %s is full: could not reserve %s for the test file. "
                        "Choose a smaller test size or free some space", shown_path(path), shown_bytes(t->size));
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
      rc = emit_failure(e == ENOSPC ? FAIL_NO_SPACE : FAIL_IO_ERROR, "writing the test file %s failed at %s: %s%s",
                        shown_path(t->file_path), shown_bytes(done), strerror(e), e == ENOSPC ? ". Free some space or choose a smaller test size" : "");
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
  if (t->dir_fd >= 0 && !signal_unlink_armed) {
    close(t->dir_fd);
    t->dir_fd = -1;
  }
}

// A work folder is ours when it holds the marker its maker wrote once it had the lock: a regular
// file of ours, one link, whose content is the folder's own name.
static int holds_marker(int dir_fd, const char *name) {
  int m = openat(dir_fd, WORKDIR_MARKER, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
  if (m < 0) return 0;
  struct stat st;
  char text[128];
  ssize_t n = fstat(m, &st) == 0 && S_ISREG(st.st_mode) && st.st_uid == geteuid() && st.st_nlink == 1 ? read(m, text, sizeof text) : -1;
  close(m);
  return n == (ssize_t)strlen(name) && memcmp(text, name, (size_t)n) == 0;
}

// Whether the entry open as fd (stat st) is something a worker of this user made and left: see
// target.h. A live worker holds the lock; a file nobody locks yet may be brand new (its creator
// takes the lock right after creating it, before giving it any size).
static int is_left_by_us(int fd, const struct stat *st, const char *name) {
  if (st->st_uid != geteuid()) return 0;
  if (S_ISREG(st->st_mode))
    return (st->st_mode & 07777) == 0600 && st->st_nlink == 1 && flock(fd, LOCK_EX | LOCK_NB) == 0 &&
           (st->st_size > 0 || time(NULL) - st->st_ctime >= 2);
  if (S_ISDIR(st->st_mode)) return (st->st_mode & 07777) == 0700 && holds_marker(fd, name) && flock(fd, LOCK_EX | LOCK_NB) == 0;
  return 0;
}

int sweep_stale_files(const char *dir) {
  DIR *d = opendir(dir);
  if (!d) return 0;
  int removed = 0;
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    if (!is_made_name(e->d_name)) continue;
    int fd = openat(dirfd(d), e->d_name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) continue;
    struct stat st, named;
    if (fstat(fd, &st) != 0 || !is_left_by_us(fd, &st, e->d_name)) {
      close(fd);
      continue;
    }
    // Emptied from the descriptor checked above; the name is removed only while it still is it.
    char failed[256] = "";
    int rc = S_ISDIR(st.st_mode) ? remove_own_contents(fd, failed, sizeof failed) : 0;
    int same = fstatat(dirfd(d), e->d_name, &named, AT_SYMLINK_NOFOLLOW) == 0 && named.st_dev == st.st_dev && named.st_ino == st.st_ino;
    if (rc == 0 && same && unlinkat(dirfd(d), e->d_name, S_ISDIR(st.st_mode) ? AT_REMOVEDIR : 0) != 0) rc = -errno;
    const char *what = S_ISDIR(st.st_mode) ? "a workload folder" : "a test file";
    if (rc == 0 && same) {
      removed++;
      emit_warning("stale-file-removed", "removed %s/%s, %s left by a run that was killed", shown_path(dir), e->d_name, what);
    } else if (rc != 0) {
      emit_warning("stale-file-left", "could not remove %s/%s, %s left by a run that was killed (at %s inside it: %s). Remove it "
                   "by hand (rm -rf)", shown_path(dir), e->d_name, what, failed[0] ? failed : ".", strerror(-rc));
    }
    close(fd);
  }
  closedir(d);
  return removed;
}
