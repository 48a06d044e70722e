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

/// A DISCONNECT's reason: a token for programs and a text for people, on the wire as
/// `TOKEN` or `TOKEN: TEXT` (PROTOCOL.md, "DISCONNECT", whose table lists the tokens).
public struct DisconnectReason: Sendable, Hashable, CustomStringConvertible {
    public enum Token: String, Sendable, CaseIterable {
        /// A message from a connection with no registered worker: start over with READY.
        case notRegistered = "not-registered"
        /// A READY of an older revision than the coordinator accepts (or none).
        case oldProtocol = "old-protocol"
        /// A READY that fails validation; the text names the field.
        case invalidField = "invalid-field"
        /// The worker's key is no longer in the allow-list.
        case keyNotAllowed = "key-not-allowed"
        /// The coordinator drains and stops.
        case coordinatorStopping = "coordinator-stopping"
        /// The worker drains and stops.
        case workerStopping = "worker-stopping"
    }

    /// Nil for a reason without a token this revision knows (an older peer's free text).
    public let token: Token?
    public let text: String

    public init(_ token: Token, _ text: String = "") {
        self.token = token
        self.text = text
    }

    /// Reads a received reason: the part before the first ": " when it is a known token.
    public init(parsing reason: String) {
        let head = reason.firstRange(of: ": ").map { String(reason[..<$0.lowerBound]) } ?? reason
        guard let token = Token(rawValue: head) else {
            self.token = nil
            self.text = reason
            return
        }
        self.token = token
        self.text = head.count == reason.count ? "" : String(reason.dropFirst(head.count + 2))
    }

    /// The `reason` field, within its 1024 bytes (a long text is cut at a character).
    public var description: String {
        guard let token else { return Self.bounded(text) }
        return Self.bounded(text.isEmpty ? token.rawValue : token.rawValue + ": " + text)
    }

    private static func bounded(_ reason: String) -> String {
        var bytes = 0
        return String(
            reason.prefix { character in
                bytes += character.utf8.count
                return bytes <= FieldBounds.disconnectReasonBytes.upperBound
            }
        )
    }
}
