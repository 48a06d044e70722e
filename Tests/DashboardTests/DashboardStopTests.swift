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
import Dispatch
import Foundation
import PhotomillCore
import Testing

@testable import Dashboard

/// How the dashboard lets go of the catalog when it stops: after it, the coordinator
/// closes its own connection and takes the catalog out of WAL mode, which SQLite refuses
/// while another connection is open. A whole suite under load saw `run` leave the catalog
/// as three files (`-wal`, `-shm`): the dashboard's connection, closed only when the server
/// went away, was still open. Without `closeReader` this test fails on both counts.
@Suite struct DashboardStopTests {
    /// `closeReader` (the end of `run`) returns only once the catalog work queued before it
    /// has finished: a job that holds the dashboard's thread for up to 2 s (a semaphore
    /// nobody signals) is over when it returns, not still waiting. Then the coordinator's
    /// close leaves one file, and the dashboard's catalog work is refused.
    @Test func stoppingWaitsForQueuedReadsThenTheCatalogIsOneFile() async throws {
        let fixture = try Fixture()
        let server = fixture.server
        let started = Completion<Void>()
        let finished = ManagedFlag()
        let read = Task {
            try await server.catalogWork {
                let status = try server.reader.status()
                started.fulfil(())
                _ = DispatchSemaphore(value: 0).wait(timeout: .now() + 2)
                finished.set()
                return status.count(.hash, .pending)
            }
        }
        await started.value
        await server.closeReader()
        #expect(finished.isSet, "closeReader returned while a read queued before it was still going")
        #expect(try await read.value == 2)
        await #expect(throws: CancellationError.self) { try await server.catalogWork { 0 } }

        let path = fixture.catalog.path
        fixture.catalog.close()
        let left = ["-wal", "-shm"].filter { FileManager.default.fileExists(atPath: path + $0) }
        #expect(left.isEmpty, "files beside the catalog after its close: \(left)")
    }
}
