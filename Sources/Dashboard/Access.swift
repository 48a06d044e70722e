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

import Foundation
import HTTPTypes
import Hummingbird

/// Who may use the dashboard (docs/operations.md, "Dashboard: access").
///
/// - With a token (`--http-token-file`, required off loopback), the API and `/metrics` want
///   `Authorization: Bearer TOKEN` (`BearerToken`, attached to their routes: it runs
///   exactly when their handlers would, whatever spelling of the path reached them); the
///   page and its assets hold no data and are served to anyone, and the page asks for the
///   token.
/// - Without one (loopback only), a request must name a loopback host: a web page elsewhere
///   whose name resolves to 127.0.0.1 (DNS rebinding) is refused.
/// - An action (POST) also wants JSON, and an `Origin`, when the browser sends one, equal to
///   the page's own: another site's page can neither post a form to it nor send JSON
///   without a preflight that this server never answers.
struct Access<Context: RequestContext>: RouterMiddleware {
    let token: String?

    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let authority = request.head.authority ?? ""
        if token == nil, !HTTPAddress.isLoopbackAuthority(authority) {
            return Self.refusal(
                .misdirectedRequest,
                "this dashboard answers on loopback only: open it as http://127.0.0.1:PORT/"
            )
        }
        if request.method == .post {
            if let origin = request.headers[.origin],
                origin != "http://" + authority && origin != "https://" + authority
            {
                return Self.refusal(.forbidden, "an action from another site's page (Origin \(origin)) is refused")
            }
            guard request.headers[.contentType]?.hasPrefix("application/json") == true else {
                return Self.refusal(
                    .unsupportedMediaType,
                    "send the action's filters as JSON (Content-Type: application/json)"
                )
            }
        }
        return try await next(request, context)
    }

    static func refusal(_ status: HTTPResponse.Status, _ message: String) -> Response {
        APIResponse.error(status, message)
    }
}

/// The token check of the routes that hold data (the API, `/metrics`), added to their
/// groups: Hummingbird builds a group's middleware into each of its endpoints' responders,
/// so the check runs after the router chose the route and before its handler, for every
/// path that reaches it (`//api/v1/status`, `/metrics/`, …), and for no other. Without a
/// token (loopback only) it lets everything through.
struct BearerToken<Context: RequestContext>: RouterMiddleware {
    let token: String?

    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        if let token, !Self.presents(token, request.headers[.authorization]) {
            var response = APIResponse.error(
                .unauthorized,
                "a bearer token is needed (the --http-token-file of the coordinator)"
            )
            response.headers[.wwwAuthenticate] = #"Bearer realm="photomill""#
            return response
        }
        return try await next(request, context)
    }

    /// Whether `header` is `Bearer TOKEN`, compared in constant time.
    static func presents(_ token: String, _ header: String?) -> Bool {
        guard let header, header.hasPrefix("Bearer ") else { return false }
        let given = Array(header.utf8.dropFirst(7))
        let wanted = Array(token.utf8)
        guard given.count == wanted.count else { return false }
        return zip(given, wanted).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
