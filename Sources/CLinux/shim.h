//===----------------------------------------------------------------------===//
//
// This source file is part of the photomill open source project
//
// Copyright (c) 2026 the photomill authors
// Licensed under Apache License v2.0
//
// See LICENSE for license information
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef PHOTOMILL_CLINUX_SHIM_H
#define PHOTOMILL_CLINUX_SHIM_H
// What Swift's Glibc module leaves out and the watcher needs: statfs(2), whose f_type
// says which file system a folder lies on (Glibc exports only statvfs, which does not),
// and the kernel's magic numbers for those file systems (<linux/magic.h>).
#include <sys/vfs.h>
#include <linux/magic.h>

/// The file system type of `path` (statfs(2)'s f_type), or -1 with errno set.
static inline long photomill_file_system_type(const char *path) {
    struct statfs info;
    if (statfs(path, &info) != 0) return -1;
    return (long)info.f_type;
}
#endif
