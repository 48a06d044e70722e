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

/// How the API writes what it read or did: as the CLI's `--json` does (`status`, `failed`,
/// `retry`, `pause`). Those shapes live with the commands, in the executable, which passes
/// them in: one shape per answer, whether a shell or a browser asked.
public struct OperatorViews: Sendable {
    /// `status --json`.
    public var status: @Sendable (CatalogStatus) -> Data
    /// The `workers` array of `status --json`.
    public var workers: @Sendable (CatalogStatus) -> Data
    /// The objects of `failed --json`, as one JSON array.
    public var failed: @Sendable ([FailedTask]) -> Data
    /// `retry --json` (and `prioritize --json`): tasks requeued (or moved) per kind.
    public var requeued: @Sendable (_ counts: [Kind: Int], _ dryRun: Bool) -> Data
    /// `pause --json` and `resume --json`: what is paused now, and what the command changed.
    public var paused: @Sendable (_ paused: [Kind: Pause], _ changed: Set<Kind>) -> Data
    /// The `library` object of `status --json`: watched, polled, excluded, skipped.
    public var library: @Sendable (LibraryStatus) -> Data = { _ in Data("{}".utf8) }
    /// `scan --no-wait --json`: the rescan asked for.
    public var scanRequested: @Sendable (_ request: Int64, _ paths: [String]?) -> Data = { request, _ in
        Data("{\"request\":\(request)}".utf8)
    }

    public init(
        status: @escaping @Sendable (CatalogStatus) -> Data,
        workers: @escaping @Sendable (CatalogStatus) -> Data,
        failed: @escaping @Sendable ([FailedTask]) -> Data,
        requeued: @escaping @Sendable ([Kind: Int], Bool) -> Data,
        paused: @escaping @Sendable ([Kind: Pause], Set<Kind>) -> Data
    ) {
        self.status = status
        self.workers = workers
        self.failed = failed
        self.requeued = requeued
        self.paused = paused
    }
}
