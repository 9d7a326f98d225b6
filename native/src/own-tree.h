// Removing a folder DiskDelta made, from descriptors: nothing below it is reached by a path
// resolved again, links are removed, never followed. Sub-folders of ours that a tarball made
// read-only (0555, 0000) are given u+rwx first: they are our own, so we may.
#ifndef DD_OWN_TREE_H
#define DD_OWN_TREE_H

// Removes everything inside the open folder dir_fd; returns 0 or -errno of the first failure
// (the rest is still removed), and the name that failed in `failed` (cap bytes) when given.
int remove_own_contents(int dir_fd, char *failed, unsigned cap);
// Removes parent_fd/name and everything below it; returns 0 or -errno.
int remove_own_tree_at(int parent_fd, const char *name);

#endif
