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

import Catalog
import Coordinator
import Foundation
import PhotomillCore

extension HeldBackTasks {
    /// Kind → why some of its pending tasks wait, in words, as `status` and `run`'s
    /// summary print them after the count of pending tasks.
    var reasons: [Kind: String] {
        var reasons: [Kind: [String]] = [:]
        let limit = CoordinatorConfiguration.maxFileBytesAsBlobs
        for (kind, held) in oversized {
            reasons[kind, default: []].append(
                """
                \(held.tasks) too large for byte transfer (up to \(held.largestBytes >> 20) MiB > \(limit >> 20) MiB), \
                only a worker that reads their folder (--root) can take them
                """
            )
        }
        for (kind, held) in backingOff {
            reasons[kind, default: []].append(
                "\(held.tasks) backing off after a failed attempt, the first until \(isoTime(held.firstDue))"
            )
        }
        return reasons.mapValues { $0.joined(separator: "; ") }
    }
}

extension CatalogStatus {
    /// Adds what `held` says (`Catalog.heldBack`) to what the coordinator recorded.
    mutating func add(_ held: HeldBackTasks) {
        heldBack = held
    }

    /// Kind → why its pending tasks wait, in words: the coordinator's reason, then the
    /// tasks held back.
    var waitingWords: [Kind: String] {
        var words = Dictionary(uniqueKeysWithValues: waiting.map { ($0.key, $0.value.words(for: $0.key)) })
        words.merge(heldBack.reasons) { "\($0); \($1)" }
        return words
    }
}
