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

/// A message that breaks protocols/PROTOCOL.md. The receiver drops it and counts it by
/// `reason`; a violation never ends the connection or the process by itself.
public struct ProtocolViolation: Error, Sendable, Hashable, CustomStringConvertible {
    /// Stable and machine-readable: used as a metrics label and in logs, so existing values
    /// never change spelling.
    public struct Reason: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        /// Fewer frames than signature, command and body.
        public static let missingFrame = Reason(rawValue: "missing-frame")
        /// More frames than `Limits.maxFrames`.
        public static let tooManyFrames = Reason(rawValue: "too-many-frames")
        /// The first frame is not "PMILL1": another protocol, or another major version.
        public static let wrongSignature = Reason(rawValue: "wrong-signature")
        /// The command frame is not one byte naming a known command.
        public static let unknownCommand = Reason(rawValue: "unknown-command")
        /// The body or a blob frame is over its size limit.
        public static let frameTooLarge = Reason(rawValue: "frame-too-large")
        /// The body ends inside a length-delimited field (a string or a nested message).
        /// A body cut inside a varint reads as `malformed-body`: the protobuf decoder
        /// cannot tell the two apart there.
        public static let truncatedBody = Reason(rawValue: "truncated-body")
        /// The body is not protobuf of the command's message (bad tags, wire types, UTF-8…).
        public static let malformedBody = Reason(rawValue: "malformed-body")
        /// The body decoded, but a field's value is outside what PROTOCOL.md allows.
        public static let invalidField = Reason(rawValue: "invalid-field")
        /// A field refers to a blob frame that is not there, or file bytes are short.
        public static let missingBlob = Reason(rawValue: "missing-blob")
        /// A blob frame that nothing refers to, or blobs on a command that takes none.
        public static let unexpectedBlob = Reason(rawValue: "unexpected-blob")

        // What a receiver's state machine rejects in a well-formed message.

        /// A RESULT, FAIL or EXTEND for a job its sender does not hold (another worker's, or
        /// under a token no coordinator issued); a re-send after a lost ACK is none.
        public static let unknownJob = Reason(rawValue: "unknown-job")
        /// A valid command the receiver is never sent (a JOB to the coordinator, a READY to
        /// a worker).
        public static let unexpectedCommand = Reason(rawValue: "unexpected-command")
        /// A second READY on one connection.
        public static let duplicateReady = Reason(rawValue: "duplicate-ready")
        /// A READY from a CURVE key no longer in the allow-list.
        public static let keyNotAllowed = Reason(rawValue: "key-not-allowed")
        /// A READY of a protocol revision older than the coordinator accepts.
        public static let oldProtocol = Reason(rawValue: "old-protocol")

        /// Every reason the codec produces, for pre-registering counters.
        public static let all: [Reason] = [
            .missingFrame, .tooManyFrames, .wrongSignature, .unknownCommand, .frameTooLarge,
            .truncatedBody, .malformedBody, .invalidField, .missingBlob, .unexpectedBlob,
        ]

        public var description: String { rawValue }
    }

    public let reason: Reason
    /// The command, when the frames got far enough to name one.
    public let command: Command?
    /// The offending field as `Message.field[index].field`, when one is to blame.
    public let field: String?
    /// What was wrong, naming the field and the value (truncated) where there is one.
    public let message: String

    public init(_ reason: Reason, command: Command? = nil, field: String? = nil, _ message: String) {
        self.reason = reason
        self.command = command
        self.field = field
        self.message = message
    }

    /// The message already names the command and the field where there is one.
    public var description: String { "protocol violation (\(reason)): \(message)" }
}
