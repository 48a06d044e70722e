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
import Foundation
import PhotomillCore

/// The dashboard's throughput chart: tasks finished (done or failed) per kind in each
/// interval of `interval` seconds over the last hour, from the differences of task_counts
/// between samples: a read of 16 rows, whatever the size of the catalog or the rate. It
/// starts with the server (an hour of attempts could be millions of rows to count).
/// A `retry` or `reprocess` lowers the counts; such an interval shows 0, not less.
struct ThroughputHistory: Sendable {
    /// One interval: when it ended (wall clock) and what finished in it, by kind.
    struct Point: Sendable, Encodable {
        var at: Double
        var finished: [String: Int]
    }

    let interval: Double
    let capacity: Int
    private(set) var points: [Point] = []
    private var last: (at: Double, finished: [Kind: Int])?

    init(interval: Double, span: Double = 3600) {
        self.interval = interval
        capacity = Int(span / interval)
    }

    /// Records a sample of the catalog's counts.
    mutating func record(_ figures: CatalogFigures) {
        var finished: [Kind: Int] = [:]
        for kind in Kind.allCases { finished[kind] = figures.count(kind, .done) + figures.count(kind, .failed) }
        defer { last = (figures.readAt, finished) }
        guard let last else { return }
        var point = Point(at: figures.readAt, finished: [:])
        for kind in Kind.allCases where figures.counts[kind] != nil || last.finished[kind, default: 0] > 0 {
            point.finished[kind.rawValue] = max(0, finished[kind, default: 0] - last.finished[kind, default: 0])
        }
        points.append(point)
        if points.count > capacity { points.removeFirst(points.count - capacity) }
    }
}
