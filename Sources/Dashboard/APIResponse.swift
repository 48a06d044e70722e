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

/// Responses of the API: JSON, never cached (every answer is a reading of a moving catalog).
enum APIResponse {
    static func json(status: HTTPResponse.Status = .ok, _ body: Data) -> Response {
        Response(
            status: status,
            headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: body))
        )
    }

    static func json(status: HTTPResponse.Status = .ok, _ value: some Encodable) -> Response {
        json(status: status, encoded(value))
    }

    /// `value` as the API's JSON (keys sorted).
    static func encoded(_ value: some Encodable) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(value)) ?? Data("{}".utf8)
    }

    /// A refusal or a failure: `{"error": "…"}`, naming what to do.
    static func error(_ status: HTTPResponse.Status, _ message: String) -> Response {
        json(status: status, ["error": message])
    }
}
