#include "fs-kinds.h"

#include <linux/magic.h>

const char *virtual_fs_name(long type) {
  switch (type) {
    case PROC_SUPER_MAGIC: return "proc";
    case SYSFS_MAGIC: return "sysfs";
    case DEBUGFS_MAGIC: return "debugfs";
    case TRACEFS_MAGIC: return "tracefs";
    case CGROUP_SUPER_MAGIC: return "cgroup";
    case CGROUP2_SUPER_MAGIC: return "cgroup2";
    case SECURITYFS_MAGIC: return "securityfs";
    case BPF_FS_MAGIC: return "bpf";
    case PSTOREFS_MAGIC: return "pstore";
    case DEVPTS_SUPER_MAGIC: return "devpts";
    case EFIVARFS_MAGIC: return "efivarfs";
    case 0x62656570: return "configfs";
    case 0x19800202: return "mqueue";
    case NSFS_MAGIC: return "nsfs";
    case BINFMTFS_MAGIC: return "binfmt_misc";
    case SELINUX_MAGIC: return "selinuxfs";
    case 0x65735543: return "fusectl";
    case HUGETLBFS_MAGIC: return "hugetlbfs";
    case AUTOFS_SUPER_MAGIC: return "autofs";
    default: return 0;
  }
}

const char *ram_fs_name(long type) {
  switch (type) {
    case TMPFS_MAGIC: return "tmpfs";
    case RAMFS_MAGIC: return "ramfs";
    default: return 0;
  }
}
