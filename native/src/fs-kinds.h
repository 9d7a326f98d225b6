// Which filesystems have no disk under them, said once for every verb that refuses them (the
// worker's targets, the working-set scan, the access recorder) and for the helper, which checks
// again as root.
#ifndef DD_FS_KINDS_H
#define DD_FS_KINDS_H

// A filesystem the kernel makes up (/proc, /sys, cgroups…): its name, or NULL.
const char *virtual_fs_name(long type);
// A filesystem that keeps its files in memory (tmpfs, ramfs; devtmpfs is tmpfs): its name, or NULL.
const char *ram_fs_name(long type);

#endif
