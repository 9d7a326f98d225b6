// diskdelta-helper: the only part of DiskDelta that runs as root. It is started through pkexec
// (polkit action org.diskdelta.helper, auth_admin_keep), does one fixed verb, and exits; the
// measuring worker stays the user's own process (GNOME Disks' model, not KDiskMark's root
// benchmark whose authorisation expires mid-run).
//
// Nothing from the caller is trusted: pkexec starts this with a clean environment, and every
// verb validates its operands here again (the caller's checks do not count). The verbs open
// no device or file writable: devices through blockdev_open_ro (shared with the worker), which
// has no way to ask for write access; the one write is drop-caches' to a kernel knob.
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <pwd.h>
#include <linux/loop.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/fsuid.h>
#include <sys/random.h>
#include <sys/sysmacros.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#include "blockdev.h"
#include "cipher.h"
#include "dm-crypt-map.h"
#include "access-feed.h"
#include "fanotify-group.h"
#include "fdpass.h"
#include "fs-kinds.h"
#include "helper-protocol.h"
#include "nvme-smart.h"
#include "testfile-name.h"

#define HELPER_NAME "diskdelta-helper"
#define HELPER_VERSION "0.1.0"

static int say(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int say(int code, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, HELPER_NAME ": ");
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
  return code;
}

// The caller: pkexec puts the invoking user's uid in PKEXEC_UID. Run by root directly (no
// pkexec), the caller is root.
static int caller_uid(uid_t *uid) {
  const char *s = getenv("PKEXEC_UID");
  if (!s) {
    *uid = getuid();
    return 0;
  }
  if (!*s || strspn(s, "0123456789") != strlen(s) || strlen(s) > 10) return -1;
  unsigned long v = strtoul(s, NULL, 10);
  if (v > 0xfffffffful) return -1;
  *uid = (uid_t)v;
  return 0;
}

// A device operand is exactly /dev/NAME: one component, no '/', no '.'-leading names (so no
// "..") and no links resolved here: the caller resolves /dev/disk/by-id/… before asking.
static int valid_device_path(const char *path) {
  const char *prefix = "/dev/";
  size_t plen = strlen(prefix), len = strlen(path);
  if (strncmp(path, prefix, plen) != 0 || len == plen || len - plen > 64) return 0;
  const char *name = path + plen;
  if (name[0] == '.') return 0;
  return strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_+:@-.") == strlen(name);
}

static int require_socket_stdout(void) {
  struct stat st;
  if (fstat(STDOUT_FILENO, &st) != 0 || !S_ISSOCK(st.st_mode))
    return say(HX_USAGE, "stdout must be the caller's Unix socket (the descriptor travels over it); nothing was opened");
  return 0;
}

static int send_device(int fd, const char *device, const blockdev_info_t *info) {
  char text[256];
  snprintf(text, sizeof text, "{\"device\":\"%s\",\"bytes\":%llu,\"sector\":%d}\n", device,
           (unsigned long long)info->bytes, info->sector);
  int rc = fdpass_send(STDOUT_FILENO, fd, text);
  close(fd);
  if (rc != 0) return say(HX_FAILED, "could not hand the descriptor back: %s (the caller went away?)", strerror(errno));
  return HX_OK;
}

static int blockdev_exit(blockdev_status_t status) {
  switch (status) {
    case BLOCKDEV_MISSING: return HX_VANISHED;
    case BLOCKDEV_SYMLINK:
    case BLOCKDEV_NOT_BLOCK:
    case BLOCKDEV_WRITABLE_FD: return HX_REFUSED;
    default: return HX_FAILED;
  }
}

// open-ro DEVICE: the read-only O_DIRECT descriptor of a block device, passed back over stdout.
static int verb_open_ro(char **operands) {
  const char *device = operands[0];
  if (!valid_device_path(device))
    return say(HX_REFUSED, "refusing '%s': a device is named /dev/NAME (no links, no '..', no sub-folders); nothing was opened", device);
  int rc = require_socket_stdout();
  if (rc) return rc;
  blockdev_info_t info;
  blockdev_status_t status;
  char why[PATH_MAX + 128];
  int fd = blockdev_open_ro(device, 1, &info, &status, why, sizeof why);
  if (fd < 0 && blockdev_exit(status) == HX_REFUSED) return say(HX_REFUSED, "refusing %s: %s; nothing was opened", device, why);
  if (fd < 0) return say(blockdev_exit(status), "cannot open %s: %s", device, why);
  return send_device(fd, device, &info);
}

// drop-caches: sync, then drop the page cache, dentries and inodes (cold-start workloads).
// smart-log DEVICE: the NVMe drive's own SMART / health log as one JSON line on stdout. The
// device is opened read-only without following links, must be an NVMe controller or whole
// namespace by its major:minor (nvme-smart.c), and gets fixed read-only admin commands (Get Log
// Page 02h, Identify, Get Log Page 09h and C0h for the flash's own writes): nothing of the
// caller's reaches the drive but the device's name.
static int verb_smart_log(char **operands) {
  const char *device = operands[0];
  if (!valid_device_path(device))
    return say(HX_REFUSED, "refusing '%s': a device is named /dev/NAME (no links, no '..', no sub-folders); nothing was read", device);
  // O_PATH first: nothing is opened for I/O until it is known to be an NVMe device (opening
  // some other character device can itself act: a tape rewinds, a terminal becomes ours).
  int node = open(device, O_PATH | O_NOFOLLOW | O_CLOEXEC);
  if (node < 0) {
    int e = errno;
    return say(e == ENOENT ? HX_VANISHED : e == ELOOP ? HX_REFUSED : HX_FAILED, "cannot open %s: %s; nothing was read", device,
               e == ELOOP ? "a symbolic link" : strerror(e));
  }
  char why[256];
  struct stat before, after;
  if (nvme_smart_check_fd(node, why, sizeof why) != 0 || fstat(node, &before) != 0) {
    close(node);
    return say(HX_REFUSED, "refusing %s: %s; nothing was read", device, why);
  }
  char again[64];
  snprintf(again, sizeof again, "/proc/self/fd/%d", node);
  int fd = open(again, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  close(node);
  if (fd < 0) return say(HX_FAILED, "cannot open %s: %s; nothing was read", device, strerror(errno));
  if (fstat(fd, &after) != 0 || after.st_rdev != before.st_rdev || after.st_ino != before.st_ino) {
    close(fd);
    return say(HX_REFUSED, "refusing %s: it changed while being opened; nothing was read", device);
  }
  int rc = nvme_smart_print(fd, device, stdout, why, sizeof why);
  close(fd);
  return rc == 0 ? HX_OK : say(HX_FAILED, "cannot read the SMART log of %s: %s", device, why);
}

// smart-ata DEVICE: a SATA/SCSI disk's SMART attributes, by the system's smartctl (a fixed path,
// a fixed argv, a fixed environment): `smartctl -j -A -H -i /dev/NAME`, its JSON on stdout and its
// exit status (a bit mask) as the helper's. Before smartctl is started, /dev/NAME must be named
// like a whole SCSI/ATA disk (sdX, hdX) and be, by its major:minor in sysfs, the kernel's disk of
// that very name (not a partition, not another driver's node given that name), reached without
// links. Nothing of the caller's reaches smartctl but the device's name.
#define SMARTCTL_PATH "/usr/sbin/smartctl"

static int verb_smart_ata(char **operands) {
  const char *device = operands[0];
  if (!valid_device_path(device))
    return say(HX_REFUSED, "refusing '%s': a device is named /dev/NAME (no links, no '..', no sub-folders); nothing was read", device);
  const char *name = device + strlen("/dev/");
  size_t letters = strspn(name + 2, "abcdefghijklmnopqrstuvwxyz");
  if ((strncmp(name, "sd", 2) != 0 && strncmp(name, "hd", 2) != 0) || letters < 1 || letters > 4 || name[2 + letters] != '\0')
    return say(HX_REFUSED, "refusing %s: not a whole SATA/SCSI disk's name (sdX, hdX); nothing was read", device);
  int node = open(device, O_PATH | O_NOFOLLOW | O_CLOEXEC);
  if (node < 0) {
    int e = errno;
    return say(e == ENOENT ? HX_VANISHED : e == ELOOP ? HX_REFUSED : HX_FAILED, "cannot open %s: %s; nothing was read", device,
               e == ELOOP ? "a symbolic link" : strerror(e));
  }
  struct stat st;
  int ok = fstat(node, &st) == 0;
  close(node);
  if (!ok) return say(HX_FAILED, "cannot look at %s: %s; nothing was read", device, strerror(errno));
  // O_PATH|O_NOFOLLOW opens a link itself rather than failing: it is seen here, never followed.
  if (S_ISLNK(st.st_mode)) return say(HX_REFUSED, "refusing %s: a symbolic link; nothing was read", device);
  if (!S_ISBLK(st.st_mode)) return say(HX_REFUSED, "refusing %s: not a block device; nothing was read", device);
  unsigned maj = major(st.st_rdev), min = minor(st.st_rdev);
  char path[96], kname[64], subsystem[64];
  snprintf(path, sizeof path, "/sys/dev/block/%u:%u/partition", maj, min);
  if (access(path, F_OK) == 0) return say(HX_REFUSED, "refusing %s: a partition, name the whole disk; nothing was read", device);
  // The node's major:minor must be the kernel's own disk of that name: a node called sdX that is
  // really a loop, a dm or another driver's device is not handed to smartctl.
  snprintf(path, sizeof path, "/sys/dev/block/%u:%u", maj, min);
  sysfs_link_tail(path, kname, sizeof kname);
  if (strcmp(kname, name) != 0)
    return say(HX_REFUSED, "refusing %s: block device %u:%u is the kernel's '%s', not %s; nothing was read", device, maj, min,
               kname[0] ? kname : "unknown", name);
  snprintf(path, sizeof path, "/sys/dev/block/%u:%u/device/subsystem", maj, min);
  sysfs_link_tail(path, subsystem, sizeof subsystem);
  if (strcmp(subsystem, "scsi") != 0 && strcmp(subsystem, "ide") != 0)
    return say(HX_REFUSED, "refusing %s: not a SCSI/ATA disk (its device's class is '%s'); nothing was read", device,
               subsystem[0] ? subsystem : "unknown");
  // smartctl runs as root: only the root-owned one the system installed, not writable by others.
  struct stat exe;
  if (stat(SMARTCTL_PATH, &exe) != 0 || !S_ISREG(exe.st_mode))
    return say(HX_FAILED, "smartctl (smartmontools) is not installed at " SMARTCTL_PATH "; nothing was read");
  if (exe.st_uid != 0 || (exe.st_mode & (S_IWGRP | S_IWOTH)))
    return say(HX_REFUSED, SMARTCTL_PATH " is not root's alone (owner or write bits); nothing was read");
  char *const argv[] = {"smartctl", "-j", "-A", "-H", "-i", (char *)device, NULL};
  char *const envp[] = {"PATH=/usr/sbin:/usr/bin:/sbin:/bin", "LC_ALL=C", NULL};
  fflush(NULL);
  execve(SMARTCTL_PATH, argv, envp);
  return say(HX_FAILED, "cannot start " SMARTCTL_PATH ": %s; nothing was read", strerror(errno));
}

static int verb_drop_caches(char **operands) {
  (void)operands;
  sync();
  int fd = open("/proc/sys/vm/drop_caches", O_WRONLY | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0) return say(HX_FAILED, "cannot open /proc/sys/vm/drop_caches: %s", strerror(errno));
  ssize_t n = write(fd, "3\n", 2);
  int e = errno;
  close(fd);
  if (n != 2) return say(HX_FAILED, "dropping the caches failed: %s", strerror(e));
  printf("{\"dropped\":\"pagecache+dentries+inodes\"}\n");
  return HX_OK;
}

// The file operand is looked up with the caller's own permissions, not root's: the file system
// uid and gid and the groups become the caller's for the walk and the open, so a folder the
// caller may not enter (a 0700 folder of root's) stops it, as it would stop any worker of theirs.
// (With a file system uid other than 0 the kernel drops CAP_DAC_OVERRIDE and
// CAP_DAC_READ_SEARCH; going back to 0 restores them.)
typedef struct {
  gid_t groups[NGROUPS_MAX];
  int count;
} saved_groups_t;

static int act_as_caller(uid_t uid, saved_groups_t *saved, const char **why) {
  saved->count = getgroups(NGROUPS_MAX, saved->groups);
  struct passwd *pw = getpwuid(uid);
  if (saved->count < 0 || !pw) return *why = "the caller has no entry in the user database", -1;
  gid_t groups[NGROUPS_MAX];
  int n = NGROUPS_MAX;
  if (getgrouplist(pw->pw_name, pw->pw_gid, groups, &n) < 0) n = 0;
  if (setgroups((size_t)n, groups) != 0) return *why = "cannot take the caller's groups", -1;
  setfsgid(pw->pw_gid);
  setfsuid(uid);
  // setfsuid says nothing on failure: ask again.
  if ((uid_t)setfsuid((uid_t)-1) != uid || (gid_t)setfsgid((gid_t)-1) != pw->pw_gid) return *why = "cannot take the caller's identity", -1;
  return 0;
}

static void act_as_root(const saved_groups_t *saved) {
  setfsuid(geteuid());
  setfsgid(getegid());
  if (saved->count >= 0 && setgroups((size_t)saved->count, saved->groups) != 0) _exit(HX_FAILED);
}

// A file operand must be a test file DiskDelta made for the calling user: an absolute path
// without '.'/'..' components, named .diskdelta-*.tmp, every folder on the way reached without
// following a link, the file itself a regular file (not a link) with one name, owned by the
// user pkexec says called. Returns an O_RDONLY descriptor of it, or -1 after saying why
// (*code set).
static int open_own_file_as_caller(const char *path, uid_t uid, int *code);

static int open_own_file(const char *path, int *code) {
  uid_t uid;
  if (caller_uid(&uid) != 0) return *code = say(HX_REFUSED, "PKEXEC_UID is malformed; nothing was opened"), -1;
  saved_groups_t saved;
  const char *why = NULL;
  if (uid != 0 && act_as_caller(uid, &saved, &why) != 0) {
    act_as_root(&saved);
    return *code = say(HX_REFUSED, "refusing '%s': %s (uid %u); nothing was opened", path, why, (unsigned)uid), -1;
  }
  int fd = open_own_file_as_caller(path, uid, code);
  if (uid != 0) act_as_root(&saved);
  return fd;
}

static int open_own_file_as_caller(const char *path, uid_t uid, int *code) {
  size_t len = strlen(path);
  if (path[0] != '/' || len >= PATH_MAX || path[len - 1] == '/')
    return *code = say(HX_REFUSED, "refusing '%s': give the absolute path of a DiskDelta test file; nothing was opened", path), -1;
  const char *base = strrchr(path, '/') + 1;
  if (!is_testfile_name(base))
    return *code = say(HX_REFUSED, "refusing '%s': not a file DiskDelta created (named %s*%s); nothing was opened", path,
                       TESTFILE_PREFIX, TESTFILE_SUFFIX), -1;
  char copy[PATH_MAX];
  snprintf(copy, sizeof copy, "%s", path);
  int dir = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
  char *save = NULL;
  char *part = strtok_r(copy + 1, "/", &save);
  while (part && dir >= 0) {
    char *next = strtok_r(NULL, "/", &save);
    if (strcmp(part, ".") == 0 || strcmp(part, "..") == 0) {
      close(dir);
      return *code = say(HX_REFUSED, "refusing '%s': '.' and '..' are not allowed in the path; nothing was opened", path), -1;
    }
    if (!next) break;  // part is the file itself
    int sub = openat(dir, part, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    int e = errno;
    close(dir);
    if (sub < 0)
      return *code = say(e == ENOENT ? HX_VANISHED : HX_REFUSED, "refusing '%s': the folder '%s' %s%s; nothing was opened", path, part,
                         e == ELOOP || e == ENOTDIR ? "is a link or not a folder"
                         : e == EACCES         ? "may not be entered by the caller: "
                                               : "cannot be reached: ",
                         e == ELOOP || e == ENOTDIR ? "" : strerror(e)), -1;
    dir = sub;
    part = next;
  }
  if (dir < 0) return *code = say(HX_FAILED, "cannot open /: %s", strerror(errno)), -1;
  int pfd = openat(dir, base, O_PATH | O_NOFOLLOW | O_CLOEXEC);
  int e = errno;
  close(dir);
  if (pfd < 0 && (e == EACCES || e == EPERM))
    return *code = say(HX_REFUSED, "refusing '%s': the caller (uid %u) may not look inside a folder on the way to it (%s), so no "
                       "run of theirs could have made it; nothing was opened", path, (unsigned)uid, strerror(e)), -1;
  if (pfd < 0) return *code = say(e == ENOENT ? HX_VANISHED : HX_FAILED, "cannot reach '%s': %s", path, strerror(e)), -1;
  struct stat st;
  const char *problem = NULL;
  char owner[96];
  if (fstat(pfd, &st) != 0) problem = strerror(errno);
  else if (S_ISLNK(st.st_mode)) problem = "it is a symbolic link";
  else if (!S_ISREG(st.st_mode)) problem = "it is not a regular file";
  else if (st.st_uid != uid) {
    snprintf(owner, sizeof owner, "it belongs to uid %u, not to the caller (uid %u)", (unsigned)st.st_uid, (unsigned)uid);
    problem = owner;
  } else if (st.st_nlink != 1) problem = "it has other hard links";
  if (problem) {
    close(pfd);
    return *code = say(HX_REFUSED, "refusing '%s': %s; nothing was opened", path, problem), -1;
  }
  char proc[64];
  snprintf(proc, sizeof proc, "/proc/self/fd/%d", pfd);
  int fd = open(proc, O_RDONLY | O_CLOEXEC | O_NOCTTY);
  e = errno;
  close(pfd);
  if (fd < 0) return *code = say(HX_FAILED, "cannot open '%s' read-only: %s", path, strerror(e)), -1;
  return fd;
}

// A read-only, self-clearing (autoclear) loop device over an open file: the loop goes away by
// itself once its last user closes it. Returns the loop's descriptor (device name in `device`),
// or -1 after saying why (*code set). The file descriptor stays the caller's to close.
static int attach_loop(int file, const char *path, char device[32], blockdev_info_t *info, int *code) {
  int ctl = open("/dev/loop-control", O_RDONLY | O_CLOEXEC);
  if (ctl < 0) return *code = say(HX_FAILED, "cannot open /dev/loop-control: %s", strerror(errno)), -1;
  // Another process may take the free device between GET_FREE and CONFIGURE: try again.
  for (int attempt = 0; attempt < 8; attempt++) {
    int n = ioctl(ctl, LOOP_CTL_GET_FREE);
    if (n < 0) break;
    snprintf(device, 32, "/dev/loop%d", n);
    blockdev_status_t status;
    char why[256];
    int loop = blockdev_open_ro(device, 0, info, &status, why, sizeof why);
    if (loop < 0) continue;
    struct loop_config config;
    memset(&config, 0, sizeof config);
    config.fd = (unsigned)file;
    config.info.lo_flags = LO_FLAGS_READ_ONLY | LO_FLAGS_AUTOCLEAR | LO_FLAGS_DIRECT_IO;
    snprintf((char *)config.info.lo_file_name, sizeof config.info.lo_file_name, "%s", path);
    if (ioctl(loop, LOOP_CONFIGURE, &config) != 0) {
      int e = errno;
      close(loop);
      if (e == EBUSY) continue;
      close(ctl);
      return *code = say(HX_FAILED, "attaching %s to %s failed: %s", path, device, strerror(e)), -1;
    }
    close(ctl);
    if (blockdev_check_fd(loop, info, &status, why, sizeof why) != 0) {
      close(loop);
      return *code = say(HX_FAILED, "the new loop device %s is unusable: %s", device, why), -1;
    }
    return loop;
  }
  int e = errno;
  close(ctl);
  return *code = say(HX_FAILED, "no free loop device: %s", strerror(e)), -1;
}

// loop-attach FILE: a read-only loop device over DiskDelta's own test file, passed back over
// stdout; the only descriptor goes to the caller, so closing it detaches the loop (no second
// root step for teardown).
static int verb_loop_attach(char **operands) {
  int rc = require_socket_stdout();
  if (rc) return rc;
  int file = open_own_file(operands[0], &rc);
  if (file < 0) return rc;
  char device[32];
  blockdev_info_t info;
  int loop = attach_loop(file, operands[0], device, &info, &rc);
  close(file);
  if (loop < 0) return rc;
  return send_device(loop, device, &info);
}

// The crypt-setup operands, each checked against a fixed table: a cipher and key size the
// worker can measure (CIPHER_SPECS), 512- or 4096-byte sectors, and dm-crypt's four
// performance flags ("none", or a comma-separated list).
static const char *const CRYPT_FLAGS[] = {"no_read_workqueue", "no_write_workqueue", "same_cpu_crypt", "submit_from_crypt_cpus"};

static int parse_crypt_setup(char **operands, dmcrypt_setup_t *setup, char flags_copy[128]) {
  memset(setup, 0, sizeof *setup);
  const char *cipher = operands[1], *key = operands[2], *sector = operands[3], *flags = operands[4];
  for (unsigned i = 0; i < CIPHER_SPEC_COUNT; i++)
    if (strcmp(cipher, CIPHER_SPECS[i].dm_name) == 0 && strcmp(key, CIPHER_SPECS[i].key_bits == 256 ? "256" : "512") == 0) {
      setup->cipher = CIPHER_SPECS[i].dm_name;
      setup->key_bits = CIPHER_SPECS[i].key_bits;
    }
  if (!setup->cipher) {
    char known[512] = "";
    for (unsigned i = 0; i < CIPHER_SPEC_COUNT; i++)
      snprintf(known + strlen(known), sizeof known - strlen(known), "%s%s %u", i ? ", " : "", CIPHER_SPECS[i].dm_name,
               CIPHER_SPECS[i].key_bits);
    return say(HX_REFUSED, "refusing cipher '%s' with key size '%s': the known ones are %s; nothing was done", cipher, key, known);
  }
  if (strcmp(sector, "512") == 0) setup->sector_bytes = 512;
  else if (strcmp(sector, "4096") == 0) setup->sector_bytes = 4096;
  else return say(HX_REFUSED, "refusing sector size '%s': 512 or 4096; nothing was done", sector);
  if (strcmp(flags, "none") == 0) return 0;
  if (strlen(flags) >= 128) return say(HX_REFUSED, "refusing flags '%.40s…': too long; nothing was done", flags);
  snprintf(flags_copy, 128, "%s", flags);
  unsigned n = 0;
  char *save = NULL;
  for (char *f = strtok_r(flags_copy, ",", &save); f; f = strtok_r(NULL, ",", &save)) {
    const char *known = NULL;
    for (unsigned i = 0; i < sizeof CRYPT_FLAGS / sizeof CRYPT_FLAGS[0]; i++)
      if (strcmp(f, CRYPT_FLAGS[i]) == 0) known = CRYPT_FLAGS[i];
    if (!known || n >= DMCRYPT_MAX_OPTIONS)
      return say(HX_REFUSED,
                 "refusing flag '%s': give none, or a comma-separated list of no_read_workqueue, no_write_workqueue, "
                 "same_cpu_crypt, submit_from_crypt_cpus; nothing was done",
                 f);
    for (unsigned i = 0; i < n; i++)
      if (setup->options[i] == known) return say(HX_REFUSED, "refusing flag '%s' given twice; nothing was done", f);
    setup->options[n++] = known;
  }
  return 0;
}

// A mapping of this caller's that its maker (the pid in the name) no longer runs: a killed run's.
// Mappings of other users, of callers still running, or without DiskDelta's uuid stay.
typedef struct {
  char prefix[48];
  char swept[1024];
} sweep_t;

static void sweep_one(const char *name, void *arg) {
  sweep_t *s = arg;
  char *end = NULL;
  long pid = strtol(name + strlen(s->prefix), &end, 10);
  char uuid[160];
  if (pid <= 0 || !end || *end != '-' || (kill((pid_t)pid, 0) == 0 || errno != ESRCH)) return;
  if (dmcrypt_uuid(name, uuid, sizeof uuid) != 0 || strncmp(uuid, DMCRYPT_UUID_PREFIX, strlen(DMCRYPT_UUID_PREFIX)) != 0) return;
  char why[256];
  if (dmcrypt_remove(name, why, sizeof why) == 0)
    snprintf(s->swept + strlen(s->swept), sizeof s->swept - strlen(s->swept), "%s%s", s->swept[0] ? ", " : "", name);
}

// crypt-setup FILE CIPHER KEY_BITS SECTOR_BYTES FLAGS: DiskDelta's own test file → a read-only,
// self-clearing loop → a read-only plain dm-crypt mapping with a random key made here and never
// shown. Both are passed back over stdout, the mapping first, then the loop beneath it (the
// caller measures each). The mapping is marked for deferred removal while the descriptor
// passed back holds it open: when the caller closes it, or dies, the kernel removes the
// mapping, and the loop clears itself after it, so no second root step tears anything down.
// A mapping left by a helper killed mid-way is removed by the caller's next crypt-setup.
static int verb_crypt_setup(char **operands) {
  dmcrypt_setup_t setup;
  char flags[128];
  int rc = parse_crypt_setup(operands, &setup, flags);
  if (rc) return rc;
  if ((rc = require_socket_stdout())) return rc;
  uid_t uid;
  if (caller_uid(&uid) != 0) return say(HX_REFUSED, "PKEXEC_UID is malformed; nothing was done");
  int file = open_own_file(operands[0], &rc);
  if (file < 0) return rc;
  char why[PATH_MAX + 128];
  if (!dmcrypt_available(why, sizeof why)) {
    close(file);
    return say(HX_FAILED, "%s; nothing was done", why);
  }
  sweep_t sweep = {.swept = ""};
  snprintf(sweep.prefix, sizeof sweep.prefix, DMCRYPT_NAME_PREFIX "%u-p", (unsigned)uid);
  if (dmcrypt_each(sweep.prefix, sweep_one, &sweep, why, sizeof why) != 0) {
    close(file);
    return say(HX_FAILED, "%s; nothing was done", why);
  }
  char loop_device[32];
  blockdev_info_t loop_info;
  int loop = attach_loop(file, operands[0], loop_device, &loop_info, &rc);
  close(file);
  if (loop < 0) return rc;
  unsigned tag;
  if (getrandom(&tag, sizeof tag, 0) != sizeof tag) tag = (unsigned)getpid();
  // pkexec execs the helper in its own place, so the parent is the caller that asked.
  char name[96];
  snprintf(name, sizeof name, "%s%d-%08x", sweep.prefix, (int)getppid(), tag);
  dev_t dev;
  int made = dmcrypt_create(name, loop_info.rdev, loop_info.bytes, &setup, &dev, why, sizeof why);
  if (made != 0) {
    close(loop);  // the last holder of the loop: it detaches
    return say(HX_FAILED, "%s", why);
  }
  char mapping[32];
  snprintf(mapping, sizeof mapping, "/dev/dm-%u", minor(dev));
  blockdev_info_t mapping_info;
  blockdev_status_t status;
  int mapped = blockdev_open_ro(mapping, 1, &mapping_info, &status, why, sizeof why);
  if (mapped >= 0 && mapping_info.rdev != dev) {
    close(mapped);
    mapped = -1;
    snprintf(why, sizeof why, "%s is not the mapping %s (another device node?)", mapping, name);
  }
  // From here the mapping lives only as long as a descriptor of it is open (or none is).
  char removal[256];
  int deferred = dmcrypt_remove(name, removal, sizeof removal);
  if (mapped < 0 || deferred != 0) {
    if (mapped >= 0) close(mapped);
    close(loop);
    if (deferred != 0) dmcrypt_remove(name, why, sizeof why);
    return say(HX_FAILED, "the mapping %s could not be handed over: %s", name, mapped < 0 ? why : removal);
  }
  // The loop is passed back opened like any device the caller measures (O_DIRECT, read-only).
  int raw = blockdev_open_ro(loop_device, 1, &loop_info, &status, why, sizeof why);
  close(loop);
  if (raw < 0) {
    close(mapped);
    return say(HX_FAILED, "cannot reopen %s: %s", loop_device, why);
  }
  if (sweep.swept[0]) say(HX_OK, "removed what killed runs left: %s", sweep.swept);
  rc = send_device(mapped, mapping, &mapping_info);
  if (rc == HX_OK) rc = send_device(raw, loop_device, &loop_info);
  else close(raw);
  return rc;
}

// record-accesses FOLDER: the access recorder's one privileged step, for a user who is not root.
// A filesystem-wide fanotify mark needs CAP_SYS_ADMIN, and the group cannot be handed over: any
// group the user held would tell them every user's file names, or descriptors of their files,
// and always the pid of whoever touched them. So the helper keeps the group and passes back only
// (hash, bytes, time, kinds) records of the files the user may look up themselves (access-feed.h),
// until the worker ends the recording. FOLDER is looked up with the caller's own permissions, and
// the whole recording runs with the caller's filesystem identity.
static int verb_record_accesses(char **operands) {
  const char *path = operands[0];
  if (path[0] != '/' || strlen(path) >= PATH_MAX)
    return say(HX_REFUSED, "refusing '%s': give the absolute path of a folder on the filesystem to record; nothing was opened", path);
  int rc = require_socket_stdout();
  if (rc) return rc;
  uid_t uid;
  if (caller_uid(&uid) != 0) return say(HX_REFUSED, "PKEXEC_UID is malformed; nothing was opened");
  saved_groups_t saved;
  const char *why_caller = NULL;
  if (uid != 0 && act_as_caller(uid, &saved, &why_caller) != 0) {
    act_as_root(&saved);
    return say(HX_REFUSED, "refusing '%s': %s (uid %u); nothing was opened", path, why_caller, (unsigned)uid);
  }
  int dir = open(path, O_PATH | O_DIRECTORY | O_CLOEXEC);
  int e = errno;
  if (dir < 0)
    return say(e == ENOENT ? HX_VANISHED : HX_REFUSED, "refusing '%s': %s%s; nothing was opened", path, strerror(e),
               e == EACCES ? " (the caller may not reach it)" : e == ENOTDIR ? " (not a folder)" : "");
  struct statfs sfs;
  if (fstatfs(dir, &sfs) != 0) {
    e = errno;
    close(dir);
    return say(HX_FAILED, "cannot read the filesystem of '%s': %s; nothing was opened", path, strerror(e));
  }
  const char *no_disk = virtual_fs_name((long)sfs.f_type) ? virtual_fs_name((long)sfs.f_type) : ram_fs_name((long)sfs.f_type);
  if (no_disk) {
    close(dir);
    return say(HX_REFUSED, "refusing '%s': it is on %s, which has no disk under it; nothing was opened", path, no_disk);
  }
  uint8_t fsid[8];
  memcpy(fsid, &sfs.f_fsid, sizeof fsid);
  // Only the group is made as root; everything after it runs with the caller's filesystem identity.
  if (uid != 0) act_as_root(&saved);
  char why[512];
  int fd_error = 0;
  int group = fanotify_group_open(dir, &fd_error, why, sizeof why);
  close(dir);
  if (group < 0) return say(HX_FAILED, "%s; nothing was opened", why);
  if (uid != 0 && act_as_caller(uid, &saved, &why_caller) != 0) {
    close(group);
    return say(HX_FAILED, "%s (uid %u); nothing was recorded", why_caller, (unsigned)uid);
  }
  uint8_t key[FILE_IDENTITY_KEY_BYTES];
  if (access_feed_read_key(STDOUT_FILENO, key, 60000, why, sizeof why) != 0) {
    close(group);
    return say(HX_FAILED, "%s; nothing was recorded", why);
  }
  rc = access_feed_run(group, STDOUT_FILENO, key, fsid, why, sizeof why);
  close(group);
  explicit_bzero(key, sizeof key);
  return rc == 0 ? HX_OK : say(HX_FAILED, "the recording ended: %s", why);
}

typedef struct {
  const char *name;
  const char *operands;  // for --help
  int operand_count;
  int (*run)(char **operands);
  const char *help;
} verb_t;

// The whole surface of the helper.
static const verb_t VERBS[] = {
    {.name = "open-ro", .operands = "DEVICE", .operand_count = 1, .run = verb_open_ro,
     .help = "open the block device /dev/NAME read-only (O_DIRECT) and pass the descriptor back over stdout"},
    {.name = "drop-caches", .operands = "", .operand_count = 0, .run = verb_drop_caches,
     .help = "sync, then drop the page cache, dentries and inodes (for cold-start measurements)"},
    {.name = "loop-attach", .operands = "FILE", .operand_count = 1, .run = verb_loop_attach,
     .help = "a read-only, self-clearing loop device over DiskDelta's own test FILE, passed back over stdout"},
    {.name = "crypt-setup", .operands = "FILE CIPHER KEY_BITS SECTOR_BYTES FLAGS", .operand_count = 5, .run = verb_crypt_setup,
     .help = "a read-only loop over DiskDelta's own test FILE and a read-only plain dm-crypt mapping on it with a\n"
             "      random key; both passed back over stdout, and removed by the kernel once the caller closes them"},
    {.name = "smart-log", .operands = "DEVICE", .operand_count = 1, .run = verb_smart_log,
     .help = "print the NVMe drive's own SMART / health log (Get Log Page 02h, read only) of the controller\n"
             "      /dev/nvmeN or the whole namespace /dev/nvmeNnM as one JSON line on stdout"},
    {.name = "smart-ata", .operands = "DEVICE", .operand_count = 1, .run = verb_smart_ata,
     .help = "print the SMART attributes of the whole SATA/SCSI disk /dev/sdX (or /dev/hdX) as " SMARTCTL_PATH "\n"
             "      -j -A -H -i prints them (read only); the exit status is then smartctl's own"},
    {.name = "record-accesses", .operands = "FOLDER", .operand_count = 1, .run = verb_record_accesses,
     .help = "record the opens, reads and writes of files on the whole filesystem of FOLDER, until the caller\n"
             "      ends it: over stdout only (hash, bytes, time, kinds) records of the files the caller may look up\n"
             "      itself, never a name, path, pid or descriptor (the caller first sends the hash's 16-byte key)"},
};
#define VERB_COUNT (sizeof VERBS / sizeof VERBS[0])

static void print_help(FILE *out) {
  fprintf(out, "Usage: pkexec /path/to/" HELPER_NAME " VERB [OPERANDS]\n\n"
               "The privileged helper of DiskDelta: one verb, then it exits. Verbs:\n");
  for (unsigned i = 0; i < VERB_COUNT; i++) fprintf(out, "  %s%s%s\n      %s\n", VERBS[i].name, *VERBS[i].operands ? " " : "", VERBS[i].operands, VERBS[i].help);
  fprintf(out,
          "\nFiles must be DiskDelta's own test files (%s*%s), regular, owned by the calling user\n"
          "(PKEXEC_UID), reached without links and with the caller's own permissions (a folder the\n"
          "caller may not enter stops it). No device or file is opened writable (the one write is\n"
          "drop-caches' to /proc/sys/vm/drop_caches); dm-crypt mappings are read-only.\n"
          "\nExit codes: 0 ok; 2 argv it does not know (incl. any write request); 3 refused (not a block\n"
          "device, a link, '..', not DiskDelta's file, another user's); 4 device or file vanished;\n"
          "5 the kernel refused or the caller's socket is gone; 6 not started as root (use pkexec).\n",
          TESTFILE_PREFIX, TESTFILE_SUFFIX);
}

int main(int argc, char **argv) {
  // Nothing but stdin, stdout and stderr is the caller's to hand in (pkexec closes the rest too):
  // a descriptor kept open here, such as the caller's own end of the socket, would keep a verb
  // that runs until the caller closes its socket from ever seeing that close.
  close_range(3, ~0u, 0);
  signal(SIGPIPE, SIG_IGN);
  umask(077);
  if (argc == 2 && strcmp(argv[1], "--help") == 0) return print_help(stdout), HX_OK;
  if (argc == 2 && strcmp(argv[1], "--version") == 0) return printf(HELPER_NAME " " HELPER_VERSION "\n"), HX_OK;
  if (geteuid() != 0) return say(HX_NOT_ROOT, "must run as root, started through pkexec; nothing was done");
  if (argc < 2) return print_help(stderr), HX_USAGE;
  const verb_t *verb = NULL;
  for (unsigned i = 0; i < VERB_COUNT; i++)
    if (strcmp(argv[1], VERBS[i].name) == 0) verb = &VERBS[i];
  if (!verb) {
    if (strncmp(argv[1], "open", 4) == 0 || strstr(argv[1], "write") || strstr(argv[1], "rw"))
      return say(HX_USAGE, "refusing '%s': the helper opens nothing writable (the only open is open-ro); nothing was opened", argv[1]);
    return say(HX_USAGE, "unknown verb '%s' (see --help); nothing was done", argv[1]);
  }
  if (argc - 2 != verb->operand_count)
    return say(HX_USAGE, "%s takes exactly %d operand%s (%s), got %d; nothing was done", verb->name, verb->operand_count,
               verb->operand_count == 1 ? "" : "s", verb->operand_count ? verb->operands : "none", argc - 2);
  return verb->run(argv + 2);
}
