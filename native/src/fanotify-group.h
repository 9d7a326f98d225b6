// The one privileged step of the access recorder (issue 30 item 2): a fanotify group with a
// filesystem-wide mark (FAN_MARK_FILESYSTEM needs CAP_SYS_ADMIN). Linked by both binaries: a
// worker run as root makes it for itself, the helper (verb record-accesses) for a user.
//
// Each event comes with an open descriptor of its file, which the kernel opens without any
// permission check, for whoever reads the group; and every event carries the pid of whoever
// touched the file. So the group never leaves a root process: the helper reads it itself and
// passes the user only records of files they may look up (access-feed.h). (A group reporting
// file handles and names instead, as the helper once passed back, gave the user every user's
// file names and writers' pids: issue 38 item 2.)
#ifndef DD_FANOTIFY_GROUP_H
#define DD_FANOTIFY_GROUP_H

#include <stddef.h>

// What is marked: open, read and modify of files, notification only (nothing is ever blocked or asked).
#define FANOTIFY_RECORD_MASK (FAN_OPEN | FAN_ACCESS | FAN_MODIFY)

// Opens the group and marks the filesystem `dirfd` lies on. Returns the group's descriptor
// (non-blocking, close-on-exec), or -1 with why filled (errno kept): EPERM without
// CAP_SYS_ADMIN, EINVAL/ENOSYS where the kernel has no fanotify or no filesystem marks, EXDEV on
// a filesystem that cannot be marked whole (a btrfs subvolume…).
// *fd_error: the kernel reports an unopenable file as an error in place of its descriptor
// (FAN_REPORT_FD_ERROR, Linux 6.13+) rather than failing the read.
int fanotify_group_open(int dirfd, int *fd_error, char *why, size_t whylen);

#endif
