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
import NIOCore
import PhotomillCore
import Testing

@testable import Dashboard

/// Who may use the dashboard (docs/operations.md, "Access"): what each request gets back.
@Suite struct AccessTests {
    @Test("with a token, the API and /metrics want it; the page, which holds no data, does not")
    func tokenGuardsDataNotPage() async throws {
        let token = "s3cret-token-0123456789"
        let fixture = try Fixture(token: token)
        try await fixture.test { client in
            for path in ["/api/v1/status", "/api/v1/failed", "/metrics"] {
                let bare = try await client.execute(uri: path, method: .get)
                #expect(bare.status == .unauthorized, "\(path)")
                #expect(bare.headers[.wwwAuthenticate] == #"Bearer realm="photomill""#)
                let wrong = try await client.execute(
                    uri: path,
                    method: .get,
                    headers: [.authorization: "Bearer s3cret-token-0123456788"]
                )
                #expect(wrong.status == .unauthorized, "a token of the same length, one character off: \(path)")
                let right = try await client.execute(
                    uri: path,
                    method: .get,
                    headers: [.authorization: "Bearer " + token]
                )
                #expect(right.status == .ok, "\(path)")
            }
            let page = try await client.execute(uri: "/", method: .get)
            #expect(page.status == .ok && page.text.contains("<title>photomill</title>"))
            #expect(page.headers[.contentSecurityPolicy]?.contains("default-src 'self'") == true)
        }
    }

    @Test("an action from another site's page, or not in JSON, is refused; the page's own goes through")
    func actionsCheckOriginAndType() async throws {
        let fixture = try Fixture()
        try await fixture.test { client in
            let body = ByteBuffer(string: #"{"kind":"ocr"}"#)
            let foreign = try await client.execute(
                uri: "/api/v1/pause",
                method: .post,
                headers: jsonHeaders(origin: "http://evil.example"),
                body: body
            )
            #expect(foreign.status == .forbidden)
            let form = try await client.execute(
                uri: "/api/v1/pause",
                method: .post,
                headers: [.contentType: "application/x-www-form-urlencoded"],
                body: ByteBuffer(string: "kind=ocr")
            )
            #expect(form.status == .unsupportedMediaType)
            #expect(try fixture.catalog.steering().paused.isEmpty, "nothing was paused by the refused requests")
            // The router test client asks for host "localhost": the page's own origin.
            let own = try await client.execute(
                uri: "/api/v1/pause",
                method: .post,
                headers: jsonHeaders(origin: "http://localhost"),
                body: body
            )
            #expect(own.status == .ok)
            #expect(try fixture.catalog.steering().paused.keys.sorted() == [.ocr])
        }
    }

    @Test("only loopback host names count as loopback (DNS rebinding names do not)")
    func loopbackAuthorities() {
        for authority in ["127.0.0.1:9380", "localhost:9380", "[::1]:9380", "127.1.2.3", "LOCALHOST:80"] {
            #expect(HTTPAddress.isLoopbackAuthority(authority), "\(authority)")
        }
        for authority in [
            "evil.example:9380", "127.0.0.1.evil.example:9380", "10.0.0.5:9380", "", "[::2]:9380", "localhost.evil:1",
        ] {
            #expect(!HTTPAddress.isLoopbackAuthority(authority), "\(authority)")
        }
    }

    @Test("--http addresses: what parses, what is loopback, and what each refusal says")
    func addresses() throws {
        #expect(try HTTPAddress(parsing: "127.0.0.1:9380") == HTTPAddress(host: "127.0.0.1", port: 9380))
        #expect(try HTTPAddress(parsing: "[::1]:0") == HTTPAddress(host: "::1", port: 0))
        #expect(try HTTPAddress(parsing: "0.0.0.0:80").isLoopback == false)
        #expect(try HTTPAddress(parsing: "localhost:8080").isLoopback)
        #expect(HTTPAddress(host: "::1", port: 9).description == "[::1]:9")
        for (text, says) in [
            ("9380", "not ADDRESS:PORT"), (":9380", "names no address"), ("127.0.0.1:http", "port must be a number"),
            ("127.0.0.1:70000", "port must be a number"), ("[::1]", "has no port"),
        ] {
            #expect(throws: HTTPAddress.ParseError.self) { try HTTPAddress(parsing: text) }
            do { _ = try HTTPAddress(parsing: text) } catch {
                #expect(error.description.contains(says), "\(text): \(error)")
            }
        }
    }
}
