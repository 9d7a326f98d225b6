#include "own-tree.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void note(char *failed, unsigned cap, const char *name) {
  if (failed && cap && !failed[0]) snprintf(failed, cap, "%s", name);
}

// parent_fd/name is a folder (not a link: fstatat without following). If it is ours and we may
// not list, enter or empty it, it gets u+rwx. Only its owner can make that change, and only we
// can write in parent_fd (a folder of ours under the 0700 work folder), so the name cannot be
// swapped for a link between the check and the chmod.
static int open_own_subfolder(int parent_fd, const char *name) {
  struct stat st;
  if (fstatat(parent_fd, name, &st, AT_SYMLINK_NOFOLLOW) != 0) return -errno;
  if (!S_ISDIR(st.st_mode)) return -ENOTDIR;
  if ((st.st_mode & S_IRWXU) != S_IRWXU && st.st_uid == geteuid() && fchmodat(parent_fd, name, (st.st_mode & 07777) | S_IRWXU, 0) != 0)
    return -errno;
  int fd = openat(parent_fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  return fd >= 0 ? fd : -errno;
}

int remove_own_contents(int dir_fd, char *failed, unsigned cap) {
  int copy = dup(dir_fd);
  DIR *d = copy >= 0 ? fdopendir(copy) : NULL;
  if (!d) {
    int e = errno;
    if (copy >= 0) close(copy);
    return -e;
  }
  int rc = 0;
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
    int r = 0;
    if (e->d_type != DT_DIR && unlinkat(dirfd(d), e->d_name, 0) == 0) continue;
    if (e->d_type == DT_DIR || errno == EISDIR || errno == EPERM) {  // EISDIR/EPERM: d_type unknown here
      int sub = open_own_subfolder(dirfd(d), e->d_name);
      if (sub >= 0) {
        r = remove_own_contents(sub, failed, cap);
        close(sub);
        if (unlinkat(dirfd(d), e->d_name, AT_REMOVEDIR) != 0 && r == 0) r = -errno;
      } else r = sub;
    } else r = -errno;
    if (r != 0 && r != -ENOENT) {
      note(failed, cap, e->d_name);
      if (rc == 0) rc = r;
    }
  }
  closedir(d);
  return rc;
}

int remove_own_tree_at(int parent_fd, const char *name) {
  int fd = open_own_subfolder(parent_fd, name);
  if (fd == -ENOTDIR || fd == -ELOOP) return unlinkat(parent_fd, name, 0) == 0 ? 0 : -errno;
  if (fd < 0) return fd == -ENOENT ? 0 : fd;
  int rc = remove_own_contents(fd, NULL, 0);
  close(fd);
  if (unlinkat(parent_fd, name, AT_REMOVEDIR) != 0 && errno != ENOENT && rc == 0) rc = -errno;
  return rc;
}
