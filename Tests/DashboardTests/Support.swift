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
import NIOEmbedded
import PhotomillCore
import PhotomillTestSupport
import Testing

@testable import Dashboard

/// A dashboard over a new catalog file with `hashes` pending hash tasks and one failed
/// OCR task, answering with views that say which view answered.
struct Fixture {
    let catalog: Catalog
    let server: DashboardServer
    let registry: MetricsRegistry

    init(token: String? = nil, hashes: Int = 2, help: [String: String] = [:]) throws {
        let directory = try temporaryDirectory("dashboard")
        catalog = try Catalog(path: directory.appendingPathComponent("catalog.sqlite").path)
        let files = (0..<hashes).map {
            ScannedFile(path: "/lib/p\($0).jpg", size: 10, mtimeNs: 1, recognition: .media(.jpeg))
        }
        _ = try catalog.record(files, kinds: [.hash], now: 1)
        try catalog.recordUnreadable(
            path: "/lib/gone.jpg",
            message: "/lib/gone.jpg: cannot read",
            kinds: [.ocr],
            now: 2
        )
        registry = MetricsRegistry(help: help)
        let address = token == nil ? HTTPAddress.loopback : HTTPAddress(host: "0.0.0.0", port: 0)
        server = try DashboardServer(
            configuration: .init(address: address, token: token, required: true),
            catalog: catalog,
            metrics: registry,
            views: Self.views,
            logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })
        )
    }

    /// Views whose JSON names the view and what it was given, enough to check the wiring.
    static let views = OperatorViews(
        status: { status in Data(#"{"view":"status","hashPending":\#(status.count(.hash, .pending))}"#.utf8) },
        workers: { _ in Data(#"{"view":"workers"}"#.utf8) },
        failed: { failures in
            Data(#"{"view":"failed","paths":[\#(failures.map { "\"\($0.path)\"" }.joined(separator: ","))]}"#.utf8)
        },
        requeued: { counts, dryRun in
            Data(#"{"view":"requeued","tasks":\#(counts.values.reduce(0, +)),"dryRun":\#(dryRun)}"#.utf8)
        },
        paused: { paused, changed in
            Data(
                #"{"view":"paused","paused":[\#(paused.keys.sorted().map { "\"\($0.rawValue)\"" }.joined(separator: ","))],"changed":\#(changed.count)}"#
                    .utf8
            )
        }
    )

    func test(_ body: @escaping @Sendable (RouterClient) async throws -> Void) async throws {
        try await body(RouterClient(responder: server.router().buildResponder()))
    }
}

/// The routes called in process, the request built as the server would parse it and the
/// response's body collected: what HummingbirdTesting's router mode does. That package's
/// live mode brings an HTTP client, and with it TLS (BoringSSL) and HTTP/2, into the debug
/// build: about 700 of its objects, for tests that never open a socket.
struct RouterClient: Sendable {
    let responder: RouterResponder<BasicRequestContext>

    func execute(
        uri: String,
        method: HTTPRequest.Method,
        headers: HTTPFields = [:],
        body: ByteBuffer? = nil
    ) async throws -> TestResponse {
        var headers = headers
        if let body { headers[.contentLength] = String(body.readableBytes) }
        let request = Request(
            head: HTTPRequest(method: method, scheme: "http", authority: "localhost", path: uri, headerFields: headers),
            body: RequestBody(buffer: body ?? ByteBuffer())
        )
        let context = BasicRequestContext(
            source: ApplicationRequestContextSource(
                channel: NIOAsyncTestingChannel(),
                logger: Logger(label: "dashboard-tests")
            )
        )
        let response = try await responder.respond(to: request, context: context)
        let collected = Collected()
        try await response.body.write(Collector(into: collected))
        return TestResponse(head: response.head, body: collected.body)
    }

    private final class Collected { var body = ByteBuffer() }

    private struct Collector: ResponseBodyWriter {
        let into: Collected
        func write(_ buffer: ByteBuffer) async throws { into.body.writeImmutableBuffer(buffer) }
        func finish(_ trailingHeaders: HTTPFields?) async throws {}
    }
}

struct TestResponse {
    let head: HTTPResponse
    let body: ByteBuffer
    var status: HTTPResponse.Status { head.status }
    var headers: HTTPFields { head.headerFields }
    var text: String { String(buffer: body) }
    var json: [String: Any] { (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] ?? [:] }
}

/// A POST of JSON, as the page sends it.
func jsonHeaders(origin: String? = nil, token: String? = nil) -> HTTPFields {
    var headers: HTTPFields = [.contentType: "application/json"]
    if let origin { headers[.origin] = origin }
    if let token { headers[.authorization] = "Bearer " + token }
    return headers
}
