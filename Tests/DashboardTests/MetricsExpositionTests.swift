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
import CoreMetrics
import Foundation
import HTTPTypes
import Hummingbird
import PhotomillCore
import Testing

@testable import Dashboard

/// /metrics in process: the catalog's gauges as counted by hand from the fixture, and a
/// metric made through swift-metrics with its HELP from the table.
@Suite struct MetricsExpositionTests {
    @Test("/metrics has the tasks by kind and state, paused kinds, the build, and swift-metrics' handles with HELP")
    func exposition() async throws {
        let fixture = try Fixture(hashes: 2, help: ["photomill_results_total": "Task results committed."])
        Counter(
            label: "photomill_results_total",
            dimensions: [("kind", "hash"), ("outcome", "done")],
            factory: fixture.registry
        )
        .increment(by: 7)
        try fixture.catalog.pause([.thumbnail], reason: "test", now: 1)
        try await fixture.test { client in
            let response = try await client.execute(uri: "/metrics", method: .get)
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "text/plain; version=0.0.4; charset=utf-8")
            let lines = Set(response.text.split(separator: "\n").map(String.init))
            for expected in [
                #"photomill_tasks{kind="hash",state="pending"} 2.0"#,
                #"photomill_tasks{kind="ocr",state="failed"} 1.0"#,
                #"photomill_tasks{kind="hash",state="done"} 0.0"#, #"photomill_kind_paused{kind="thumbnail"} 1.0"#,
                #"photomill_kind_paused{kind="ocr"} 0.0"#,
                #"photomill_build_info{version="\#(PhotomillVersion.number)"} 1.0"#,
                "# TYPE photomill_tasks gauge", "# HELP photomill_results_total Task results committed.",
                #"photomill_results_total{kind="hash",outcome="done"} 7"#,
            ] {
                #expect(lines.contains(expected), "missing: \(expected)")
            }
        }
    }
}
