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
import PhotomillCore

// /api/v1: the CLI's reports as JSON, and its actions (docs/operations.md, "The API").
extension DashboardServer {
    /// Failures listed at most, per call (`limit`, default 100).
    static let failedLimit = 1...10_000
    /// Bytes of an action's JSON body at most.
    static let bodyLimit = 64 * 1024

    func addAPI(to router: RouterGroup<BasicRequestContext>) {
        let api = router.group("api/v1")
        api.get("status") { _, _ in
            try await self.answer { self.views.status(try self.reader.status()) }
        }
        api.get("workers") { _, _ in
            try await self.answer { self.views.workers(try self.reader.status()) }
        }
        api.get("failed") { request, _ in
            let query = request.uri.queryParameters
            let action = ActionRequest(
                kind: query["kind"].map(String.init),
                class: query["class"].map(String.init),
                path: query["path"].map(String.init)
            )
            guard let limit = Int(query["limit"].map(String.init) ?? "100"), Self.failedLimit.contains(limit) else {
                return APIResponse.error(
                    .badRequest,
                    "limit must be a number from \(Self.failedLimit.lowerBound) to \(Self.failedLimit.upperBound)"
                )
            }
            let newestFirst = query["order"] == "newest"
            return try await self.act(action) { filter in
                self.views.failed(try self.reader.failedTasks(matching: filter, limit: limit, newestFirst: newestFirst))
            }
        }
        api.get("throughput") { _, _ in
            let history = self.throughput
            return APIResponse.json(ThroughputAnswer(intervalSeconds: history.interval, points: history.points))
        }
        api.post("retry") { request, _ in
            try await self.withBody(request) { action in
                try await self.act(action) { filter in
                    let dryRun = action.dryRun ?? false
                    return self.views.requeued(
                        try self.writer.retryFailed(matching: filter, dryRun: dryRun, now: WallClock.now()),
                        dryRun
                    )
                }
            }
        }
        api.post("prioritize") { request, _ in
            try await self.withBody(request) { action in
                guard action.path?.isEmpty == false else {
                    return APIResponse.error(.badRequest, "give the folder as path, a glob such as /photos/2019/*")
                }
                return try await self.act(action) { filter in
                    self.views.requeued(
                        try self.writer.prioritize(pathGlob: filter.pathGlob!, now: WallClock.now()),
                        false
                    )
                }
            }
        }
        api.post("pause") { request, _ in
            try await self.withBody(request) { action in
                let reason = String((action.reason ?? "").prefix(200))
                return try await self.changePauses(action) { kinds in
                    try self.writer.pause(
                        kinds,
                        reason: reason.isEmpty ? "paused from the dashboard" : reason,
                        now: WallClock.now()
                    )
                }
            }
        }
        api.get("library") { _, _ in
            try await self.answer { self.views.library(try self.reader.libraryStatus()) }
        }
        api.post("scan") { request, _ in
            // Body: {} for every folder, or {"path": "/photos/2019"} for one.
            try await self.withBody(request) { action in
                let paths = action.path.map { [$0] }
                return try await self.answer {
                    self.views.scanRequested(
                        try self.writer.requestScan(paths: paths, origin: "api", now: WallClock.now()),
                        paths
                    )
                }
            }
        }
        api.post("resume") { request, _ in
            try await self.withBody(request) { action in
                try await self.changePauses(action) { kinds in try self.writer.resume(kinds) }
            }
        }
    }

    /// The JSON of `body`, run on the catalog's thread; a catalog error is a 503 naming it.
    func answer(_ body: @escaping @Sendable () throws -> Data) async throws -> Response {
        do {
            return APIResponse.json(try await catalogWork(body))
        } catch let error as CatalogError {
            return APIResponse.error(.serviceUnavailable, "\(error)")
        }
    }

    /// An action or a listing with filters: an invalid one is a 400 naming the field.
    private func act(
        _ action: ActionRequest,
        _ body: @escaping @Sendable (TaskFilter) throws -> Data
    ) async throws -> Response {
        do {
            return try await answer {
                let filter = try action.filter(failedClasses: { try self.reader.failedClasses() })
                return try body(filter)
            }
        } catch let invalid as ActionRequest.Invalid {
            return APIResponse.error(.badRequest, invalid.message)
        }
    }

    private func changePauses(
        _ action: ActionRequest,
        _ change: @escaping @Sendable (Set<Kind>) throws -> Set<Kind>
    ) async throws -> Response {
        let kinds: Set<Kind>
        do {
            kinds = try action.kinds()
        } catch {
            return APIResponse.error(.badRequest, error.message)
        }
        return try await answer {
            let changed = try change(kinds)
            return self.views.paused(try self.writer.steering().paused, changed)
        }
    }

    /// Runs `body` with the action in the request's JSON body (none: no filter); a body that
    /// is not such JSON is a 400.
    private func withBody(_ request: Request, _ body: (ActionRequest) async throws -> Response) async throws -> Response
    {
        var request = request
        let bytes = try await request.collectBody(upTo: Self.bodyLimit)
        guard bytes.readableBytes > 0 else { return try await body(ActionRequest()) }
        guard let action = try? JSONDecoder().decode(ActionRequest.self, from: Data(bytes.readableBytesView)) else {
            return APIResponse.error(
                .badRequest,
                "the body must be a JSON object of filters: kind, class, path, dryRun, reason"
            )
        }
        return try await body(action)
    }
}

/// `/api/v1/throughput`: tasks finished per kind in each interval of the last hour.
struct ThroughputAnswer: Encodable {
    var intervalSeconds: Double
    var points: [ThroughputHistory.Point]
}
