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
import NIOCore

// The page and its two assets, compiled into the binary (no CDN, no build step, no files
// beside it). They hold no data, so they need no token; the page asks the API for that.
extension DashboardServer {
    func addPage(to router: Router<BasicRequestContext>) {
        router.get("/") { _, _ in Self.asset(Page.html, type: "text/html; charset=utf-8") }
        router.get("dashboard.js") { _, _ in Self.asset(Page.script, type: "text/javascript; charset=utf-8") }
        router.get("dashboard.css") { _, _ in Self.asset(Page.css, type: "text/css; charset=utf-8") }
    }

    /// Everything from this server only (and the thumbnails the pictures pages' script
    /// turns into `blob:` URLs of this origin); no framing by another site.
    static func asset(_ text: String, type: String) -> Response {
        Response(
            status: .ok,
            headers: [
                .contentType: type, .cacheControl: "no-cache", .xContentTypeOptions: "nosniff",
                .contentSecurityPolicy:
                    "default-src 'self'; img-src 'self' blob:; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
            ],
            body: ResponseBody(byteBuffer: ByteBuffer(string: text))
        )
    }
}
