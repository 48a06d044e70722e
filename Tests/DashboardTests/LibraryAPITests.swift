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
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import PhotomillCore
import Testing

@testable import Dashboard

/// The living library's routes: what the coordinator watches and skipped, and a rescan
/// asked for through the catalog (read back from it).
@Suite struct LibraryAPITests {
    @Test func libraryIsReadAndAScanIsAskedForThroughTheCatalog() async throws {
        let fixture = try Fixture()
        _ = try fixture.catalog.record(
            [ScannedFile(path: "/lib/notes.txt", size: 3, mtimeNs: 1, recognition: .skipped(.notMedia))],
            kinds: [.hash],
            now: 3
        )
        var watch = LibraryWatch()
        watch.watching = true
        watch.watchedFolders = 12
        try fixture.catalog.writeLibraryWatch(watch, now: 4)
        let seen = LockedBox<LibraryStatus?>(nil)
        var views = Fixture.views
        views.library = { status in
            seen.value = status
            return Data(#"{"view":"library"}"#.utf8)
        }
        let server = try DashboardServer(
            configuration: .init(address: HTTPAddress.loopback, token: nil, required: true),
            catalog: fixture.catalog,
            metrics: MetricsRegistry(help: [:]),
            views: views,
            logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })
        )
        do {
            let client = RouterClient(responder: server.router().buildResponder())
            let library = try await client.execute(uri: "/api/v1/library", method: .get)
            #expect(library.json["view"] as? String == "library")
            let everything = try await client.execute(
                uri: "/api/v1/scan",
                method: .post,
                headers: jsonHeaders(),
                body: ByteBuffer(string: "{}")
            )
            #expect(everything.status == .ok)
            let one = try await client.execute(
                uri: "/api/v1/scan",
                method: .post,
                headers: jsonHeaders(),
                body: ByteBuffer(string: #"{"path":"/lib/2019"}"#)
            )
            #expect(one.json["request"] as? Int == 2)
        }
        #expect(seen.value?.watch?.watchedFolders == 12 && seen.value?.skipped == [.notMedia: 1])
        let requests = try fixture.catalog.waitingScanRequests()
        #expect(requests.map(\.paths) == [nil, ["/lib/2019"]] && requests.allSatisfy { $0.origin == "api" })
    }
}

/// A value a `@Sendable` view writes and the test reads after.
final class LockedBox<Value>: @unchecked Sendable {
    // @unchecked: `value` is guarded by `lock`.
    private let lock = NSLock()
    private var stored: Value
    init(_ value: Value) { stored = value }
    var value: Value {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}
