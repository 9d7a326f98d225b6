// The one privileged step of the access recorder (issue 30 item 2): a fanotify group with a
// filesystem-wide mark (FAN_MARK_FILESYSTEM needs CAP_SYS_ADMIN). Linked by both binaries.
//
// Two kinds of group, because of what a reader of the group can do with it:
// - FANOTIFY_WITH_FDS (a worker run as root makes it for itself): each event comes with an open
//   descriptor of its file. The kernel opens it without any permission check (dentry_open), for
//   whoever reads the group: handed to a user, it would give them a readable descriptor of every
//   file anyone opens on that filesystem (seen here: a 0600 file of root's, read by nobody). So
//   this kind never leaves a root process.
// - FANOTIFY_WITH_HANDLES (the helper makes it and passes it back to the user's recorder): each
//   event names its file by file handle, its folder by handle and the entry's name
//   (FAN_REPORT_FID | FAN_REPORT_DFID_NAME). A handle opens nothing without CAP_DAC_READ_SEARCH,
//   so the user gets no file they could not open themselves; the recorder finds sizes through
//   the folders it can walk (access-recorder.c).
#ifndef DD_FANOTIFY_GROUP_H
#define DD_FANOTIFY_GROUP_H

#include <stddef.h>

typedef enum { FANOTIFY_WITH_FDS, FANOTIFY_WITH_HANDLES } fanotify_kind_t;

// What is marked: open, read and modify of files, notification only (nothing is ever blocked or
// asked). A handles group also hears folders made or moved in (to keep its folder map whole).
#define FANOTIFY_RECORD_MASK (FAN_OPEN | FAN_ACCESS | FAN_MODIFY)
#define FANOTIFY_FOLDER_MASK (FAN_CREATE | FAN_MOVED_TO | FAN_ONDIR)

// Opens the group and marks the filesystem `dirfd` lies on. Returns the group's descriptor
// (non-blocking, close-on-exec), or -1 with why filled (errno kept): EPERM without
// CAP_SYS_ADMIN, EINVAL/ENOSYS where the kernel has no fanotify, no filesystem marks or no
// handle reports, EXDEV on a filesystem that cannot be marked whole (a btrfs subvolume…).
// *fd_error: (descriptors group) the kernel reports an unopenable file as an error in place of
// its descriptor (FAN_REPORT_FD_ERROR, Linux 6.13+) rather than failing the read.
int fanotify_group_open(int dirfd, fanotify_kind_t kind, int *fd_error, char *why, size_t whylen);

#endif
