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

import ArgumentParser
import Foundation
import PhotomillCore

/// `worker --die-with-parent`, as `run` starts its workers: the worker exits as soon as
/// the `run` that started it ends, however it ends (kill -9, the hang-up of a closed
/// terminal), instead of running on as an orphan. `run` gives each worker a pipe as its
/// standard input and holds the only writing end, which the kernel closes when `run`
/// dies: the read below returns end of file. Not prctl(PR_SET_PDEATHSIG): it fires when
/// the *thread* that spawned the worker ends, and `run` restarts workers from threads
/// of Dispatch's pool, which come and go.
enum ParentWatch {
    static func start() {
        _ = OwnedThread(name: "pm-parent") {
            var byte: UInt8 = 0
            while true {
                let count = read(STDIN_FILENO, &byte, 1)
                if count == 0 || (count < 0 && errno != EINTR) { break }
            }
            printError("photomill worker: the `photomill run` that started this worker has ended; exiting with it")
            // No drain: the coordinator that would take the results is gone, and their
            // leases bring the jobs back to the next run.
            _exit(ExitCode.interrupted.rawValue)
        }
    }
}
