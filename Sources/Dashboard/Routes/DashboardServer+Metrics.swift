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
import Hummingbird
import Logging
import NIOCore

// /metrics: the Prometheus text format (docs/operations.md, "Metrics").
extension DashboardServer {
    func addMetrics(to router: RouterGroup<BasicRequestContext>) {
        router.get("metrics") { _, _ in
            // The catalog's figures first (small tables: the same cost for 10^6 tasks), then
            // everything in the registry, the coordinator's live metrics with them.
            do {
                let figures = try await self.catalogWork { try self.reader.figures() }
                self.gauges.update(figures)
            } catch {
                self.logger.warning("metrics without the catalog's figures", metadata: ["error": "\(error)"])
            }
            self.processGauges.update(self.connections)
            return Response(
                status: .ok,
                headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8", .cacheControl: "no-store"],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: self.metrics.exposition()))
            )
        }
    }
}
