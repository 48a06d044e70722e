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

import CLinux
import Foundation
import PhotomillCore

/// File systems whose files other hosts (or a daemon) change without the kernel here
/// knowing: inotify reports only what this host's processes do through it (inotify(7),
/// "Limitations and caveats"). A folder on one is polled on the rescan schedule, and the
/// operator is told once.
enum NetworkFileSystem {
    /// The kernel's magic numbers (<linux/magic.h>; GFS2's and Lustre's are not in it, and
    /// come from their sources) and the names people know them by.
    static let names: [Int: String] = [
        Int(NFS_SUPER_MAGIC): "NFS",
        Int(SMB_SUPER_MAGIC): "SMB",
        Int(CIFS_SUPER_MAGIC): "SMB/CIFS",
        Int(SMB2_SUPER_MAGIC): "SMB2",
        Int(FUSE_SUPER_MAGIC): "FUSE",
        Int(CEPH_SUPER_MAGIC): "Ceph",
        Int(AFS_SUPER_MAGIC): "AFS",
        Int(AFS_FS_MAGIC): "AFS",
        Int(CODA_SUPER_MAGIC): "Coda",
        Int(V9FS_MAGIC): "9P",
        Int(OCFS2_SUPER_MAGIC): "OCFS2",
        0x0116_1970: "GFS2",
        0x0BD0_0BD0: "Lustre",
    ]

    /// The name of the network file system `folder` lies on; nil on a local one (or when
    /// statfs(2) fails: the walk reports a folder it cannot read).
    static func name(of folder: String) -> String? {
        let type = PathBytes.withCString(folder) { photomill_file_system_type($0) }
        guard type != -1 else { return nil }
        return names[Int(UInt32(truncatingIfNeeded: type))]
    }
}
