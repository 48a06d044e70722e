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
import MillProtocol
import SwiftProtobuf
import Testing

/// What a worker in another language sends first: proto3 leaves a zero field out, so the
/// text's defaults are the values of absent fields (PROTOCOL.md, READY; issue 30, point 3).
@Suite("Proto3 defaults and DISCONNECT reasons")
struct DefaultsTests {
    @Test(
        "a READY without heartbeat_interval_ms is valid and means 1000 ms; without protocol_version it is well-formed"
    )
    func readyDefaults() throws {
        var ready = Samples.ready
        ready.heartbeatIntervalMs = 0
        ready.prefetch = 0
        let decoded = try MillCodec.decode(MillCodec.encode(.ready(ready)))
        guard case .ready(let received) = decoded else {
            Issue.record("decoded \(decoded)")
            return
        }
        #expect(received.heartbeatInterval == 1.0)
        ready.heartbeatIntervalMs = 300
        #expect(ready.heartbeatInterval == 0.3)
        // Revision 0 (unset) is decoded: the coordinator refuses it as old-protocol, with an answer.
        ready.protocolVersion = 0
        #expect(violation(of: .ready(ready)) == nil)
    }

    @Test("a reason is TOKEN or TOKEN: TEXT; a reason without a known token is text")
    func reasons() {
        #expect(DisconnectReason(.notRegistered).description == "not-registered")
        #expect(
            DisconnectReason(.invalidField, "slots: 0 is outside 1-1024").description
                == "invalid-field: slots: 0 is outside 1-1024"
        )
        let parsed = DisconnectReason(parsing: "old-protocol: worker w speaks 2; this coordinator needs 3")
        #expect(parsed.token == .oldProtocol)
        #expect(parsed.text == "worker w speaks 2; this coordinator needs 3")
        #expect(DisconnectReason(parsing: "key-not-allowed").token == .keyNotAllowed)
        #expect(DisconnectReason(parsing: "key-not-allowed").text == "")
        // An older peer's free text, and a token this revision does not know.
        #expect(DisconnectReason(parsing: "not registered").token == nil)
        #expect(DisconnectReason(parsing: "going-away: bye").token == nil)
        #expect(DisconnectReason(parsing: "going-away: bye").text == "going-away: bye")
        // Within the field's 1024 bytes, cut at a character, and valid as a DISCONNECT.
        let long = DisconnectReason(.invalidField, String(repeating: "é", count: 2_000)).description
        #expect(long.utf8.count <= 1_024 && long.utf8.count >= 1_022)
        #expect(violation(of: .disconnect(.with { $0.reason = long })) == nil)
        // Every token is what the table allows: [a-z0-9-]{1,64}.
        for token in DisconnectReason.Token.allCases {
            #expect(token.rawValue.wholeMatch(of: /[a-z0-9-]{1,64}/) != nil)
        }
    }
}
