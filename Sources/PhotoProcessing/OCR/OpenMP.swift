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

/// Tesseract parallelises inside one page with OpenMP, which on a small machine is
/// 5–6× slower in total than one single-threaded engine per photo. libgomp reads
/// `OMP_THREAD_LIMIT` once, when it is loaded (before `main`), so a process that finds
/// it unset sets it and replaces itself with a fresh copy of its own executable.
public enum OpenMP {
    public static func restartSingleThreadedIfNeeded() {
        guard ProcessInfo.processInfo.environment["OMP_THREAD_LIMIT"] == nil else { return }
        setenv("OMP_THREAD_LIMIT", "1", 1)
        let arguments = CommandLine.arguments
        var argv = arguments.map { strdup($0) }
        argv.append(nil)
        execv("/proc/self/exe", argv)
        // execv only returns on failure; carry on with OpenMP's default threading.
        for pointer in argv { free(pointer) }
    }
}
