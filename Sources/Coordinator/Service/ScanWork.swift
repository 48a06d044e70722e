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

import Foundation

/// What the scanner is asked to do: by the watcher (changes, settled), by operators
/// (`photomill scan`, the API, SIGHUP), by its own schedule.
enum ScanWork: Sendable, Hashable {
    /// Every scanned folder, walked again and reconciled with the catalog.
    case full(FullScanReason)
    /// Files and folders looked at again: gone ones are missing, folders walked, files
    /// recorded as they are now (settled).
    case paths([String])
    /// Files still changing after the settle bound: recorded as they are, marked so.
    case unsettled([String])
    /// A rename within the watched folders: the photo (or every photo of the folder) keeps
    /// its results under the new path.
    case move(from: String, to: String, isFolder: Bool)
}

/// Why a full scan runs (`LibraryWatch.FullScan.reason`).
enum FullScanReason: String, Sendable, Hashable {
    case start
    case schedule
    /// The kernel's event queue overflowed: changes were lost.
    case overflow
    /// The watcher could not keep up with the changes being settled (`SettleMachine` capacity).
    case settleOverflow = "settle-overflow"
    /// An operator asked (`photomill scan`, the API, the dashboard, SIGHUP).
    case request
}
