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
import Testing

@testable import Dashboard

/// The token guards routes, not path texts: every route the router holds (its own list, so
/// a route added later is tried too) is either one of the page's public ones or answers
/// 401 to every spelling that reaches it without the token — and reaches it with one.
@Suite struct AccessSpellingTests {
    /// The page and its assets: no data, served to anyone (docs/operations.md).
    static let publicRoutes: Set<String> = [
        "/", "/dashboard.js", "/dashboard.css",
        "/library", "/duplicates", "/pictures.js", "/pictures.css",
    ]

    /// Ways of writing `path` that Hummingbird's router resolves to the same route (it
    /// skips empty components), and some it does not (dots, case, encoding: 404s).
    static func spellings(_ path: String) -> [String] {
        let segments = path.split(separator: "/").map(String.init)
        var found = [
            path, "/" + path, path + "/", path + "//", "/." + path, "/x/.." + path, path.uppercased(), path + "/.",
        ]
        for index in segments.indices {
            var doubled = segments.map { "/" + $0 }
            doubled[index] = "/" + doubled[index]
            found.append(doubled.joined())
            var encoded = segments
            encoded[index] = String(format: "%%%02X", encoded[index].utf8.first!) + encoded[index].dropFirst()
            found.append("/" + encoded.joined(separator: "/"))
        }
        return found
    }

    @Test("every route is public or wants the token under every spelling")
    func everyRouteUnderEverySpelling() async throws {
        let token = "spelling-token-0123456789"
        let fixture = try Fixture(token: token)
        let routes = fixture.server.router().routes.map {
            (path: "/" + $0.path.description.drop { $0 == "/" }, method: $0.method)
        }
        #expect(routes.count >= 11, "the routes: \(routes)")
        #expect(Set(routes.map(\.path)).isSuperset(of: Self.publicRoutes))
        try await fixture.test { client in
            for route in routes where !Self.publicRoutes.contains(route.path) {
                for spelling in Self.spellings(route.path) {
                    let bare = try await client.execute(uri: spelling, method: route.method, headers: jsonHeaders())
                    #expect(
                        bare.status == .unauthorized || bare.status == .notFound,
                        "\(route.method) \(spelling): \(bare.status)"
                    )
                }
            }
            #expect(try fixture.catalog.steering().paused.isEmpty, "no action went through without the token")
            #expect(
                try fixture.catalog.failedTasks(matching: TaskFilter()).count == 1,
                "no retry went through without the token"
            )
            for route in routes where !Self.publicRoutes.contains(route.path) {
                var reached = 0
                for spelling in Self.spellings(route.path) {
                    let authorized = try await client.execute(
                        uri: spelling,
                        method: route.method,
                        headers: jsonHeaders(origin: "http://localhost", token: token)
                    )
                    if authorized.status != .notFound { reached += 1 }
                }
                #expect(reached >= 4, "\(route.method) \(route.path): \(reached) spellings reach it")
            }
            for path in Self.publicRoutes {
                #expect(try await client.execute(uri: path, method: .get).status == .ok, "\(path)")
            }
        }
    }
}
