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
import SwiftProtobuf

/// Frames ⇄ messages: `["PMILL1", command byte, protobuf body, blob frames…]`
/// (PROTOCOL.md, "Frames"). Pure functions without I/O; the socket owner calls them.
/// On the coordinator's ROUTER the routing-id frame comes before these and is the caller's.
public enum MillCodec {
    /// The frames of a message, ready for a multipart send.
    ///
    /// Does not validate: a sender that builds bodies from untrusted values (a worker's
    /// EXIF, OCR text) runs `validate(_:limits:)` first, since a receiver drops the whole
    /// message for one bad field.
    public static func encode(_ message: MillMessage) -> [Data] {
        var frames = [MillWire.signature, Data([message.command.rawValue]), serialize(message.body)]
        frames.append(contentsOf: message.blobs)
        return frames
    }

    /// The frames of a JOB whose body is `job`'s encoding followed by `tail`, the encoding
    /// of fields that many jobs share (the run's processing parameters, the deadlines of a
    /// set of kinds), made once by `jobTail(_:)`. A protobuf parser reads two encodings
    /// one after the other as one message with the fields of both (the wire format's
    /// merge), so the worker decodes the very JOB `encode` would have sent; the
    /// coordinator encodes only what differs per job.
    public static func encodeJob(_ job: Photomill_V1_Job, tail: Data, blobs: [Data]) -> [Data] {
        var body = job.handEncoded ?? serialize(job)
        body.append(tail)
        return [MillWire.signature, Data([Command.job.rawValue]), body] + blobs
    }

    /// The encoding of the fields `tail` sets, to append to JOB bodies (`encodeJob`).
    public static func jobTail(_ tail: Photomill_V1_Job) -> Data { serialize(tail) }

    /// The messages that carry `messages` — JOBs without blob frames (from `encodeJob`), or
    /// RESULTs and FAILs (from `encode`) — in their order: a lone one as it is, runs of
    /// several as JOBS or RESULTS (PROTOCOL.md, "Batches"), each within what a receiver
    /// with `limits` accepts: a body of at most `maxBodyBytes`, at most
    /// `FieldBounds.batchJobs` or `FieldBounds.batchResults` entries, at most `maxBlobs`
    /// blob frames. `count`: how many of `messages` each one carries, so that a sender can
    /// tell which were not sent when a send fails. Nothing is encoded twice: a repeated
    /// field's encoding is its entries' encodings one after the other, each behind its tag
    /// and length.
    public static func batched(_ messages: [[Data]], limits: Limits = .default) -> [(frames: [Data], count: Int)] {
        guard let first = messages.first else { return [] }
        let isJobs = first[1].first == Command.job.rawValue
        let most = isJobs ? FieldBounds.batchJobs.upperBound : FieldBounds.batchResults.upperBound
        var batches: [(frames: [Data], count: Int)] = []
        var start = 0
        var bytes = 0
        var blobs = 0
        func close(at end: Int) {
            guard end > start else { return }
            let run = messages[start..<end]
            let frames = run.count == 1 ? run[start] : isJobs ? encodeJobs(run) : encodeResults(run)
            batches.append((frames, run.count))
            start = end
            bytes = 0
            blobs = 0
        }
        for (index, frames) in messages.enumerated() {
            let entry = entryBytes(frames[2].count)
            let extra = frames.count - MillWire.fixedFrameCount
            if bytes + entry > limits.maxBodyBytes || blobs + extra > limits.maxBlobs || index - start == most {
                close(at: index)
            }
            bytes += entry
            blobs += extra
        }
        close(at: messages.count)
        return batches
    }

    /// JOBS: each JOB body becomes an entry of `jobs`.
    private static func encodeJobs(_ jobs: ArraySlice<[Data]>) -> [Data] {
        var body = WireWriter(capacity: jobs.reduce(0) { $0 + entryBytes($1[2].count) })
        for job in jobs { body.entry(1, job[2]) }
        return [MillWire.signature, Data([Command.jobs.rawValue]), body.data]
    }

    /// RESULTS: the RESULT bodies become `results`, the FAIL bodies `fails`, and each
    /// RESULT's blob frames follow in its order, its `blob_index` counting from its own
    /// first frame.
    private static func encodeResults(_ messages: ArraySlice<[Data]>) -> [Data] {
        var body = WireWriter(capacity: messages.reduce(0) { $0 + entryBytes($1[2].count) })
        var blobs: [Data] = []
        for frames in messages {
            let isResult = frames[1].first == Command.result.rawValue
            body.entry(isResult ? 1 : 2, frames[2])
            if isResult { blobs.append(contentsOf: frames.dropFirst(MillWire.fixedFrameCount)) }
        }
        return [MillWire.signature, Data([Command.results.rawValue]), body.data] + blobs
    }

    /// The bytes an entry of `count` bytes takes in a repeated field: tag, length, itself.
    private static func entryBytes(_ count: Int) -> Int {
        1 + WireWriter.varintSize(UInt64(count)) + count
    }

    /// The message these frames hold, with every field validated; anything else is a
    /// violation, never a crash, whatever the bytes.
    public static func decode(_ frames: [Data], limits: Limits = .default) throws(ProtocolViolation) -> MillMessage {
        let command = try checkEnvelope(frames, limits: limits)
        let body = frames[2]
        let blobs = Array(frames.dropFirst(MillWire.fixedFrameCount))
        let message: MillMessage
        switch command {
        case .ready: message = .ready(try parse(body, command))
        case .job: message = .job(try parse(body, command), blobs: blobs)
        case .extend: message = .extend(try parse(body, command))
        case .result: message = .result(try parse(body, command), blobs: blobs)
        case .fail: message = .fail(try parse(body, command))
        case .ack: message = .ack(try parse(body, command))
        case .heartbeat: message = .heartbeat(try parse(body, command))
        case .disconnect: message = .disconnect(try parse(body, command))
        case .jobs: message = .jobs(try parse(body, command))
        case .results: message = .results(try parse(body, command), blobs: blobs)
        }
        try message.validateFields()
        return message
    }

    /// Whether a receiver with these limits would accept the message: every field, the
    /// blobs against the body, and the number and size of blob frames. The body's size is
    /// not measured; within `FieldBounds` it always fits the default limit.
    public static func validate(_ message: MillMessage, limits: Limits = .default) throws(ProtocolViolation) {
        try checkBlobFrames(message.blobs, command: message.command, limits: limits)
        try message.validateFields()
    }

    /// Splits a file's bytes into blob frames for a JOB; nil when the file is larger than
    /// the receiver accepts (`Limits.maxFileBytes`), so it must be read from a shared path.
    public static func fileBlobs(_ bytes: Data, limits: Limits = .default) -> [Data]? {
        guard bytes.count <= limits.maxFileBytes, limits.maxBlobBytes > 0 else { return nil }
        return stride(from: bytes.startIndex, to: bytes.endIndex, by: limits.maxBlobBytes).map {
            bytes[$0..<min($0 + limits.maxBlobBytes, bytes.endIndex)]
        }
    }

    // MARK: - Envelope

    /// Everything that can be checked without decoding protobuf, cheapest first, so a
    /// flood of junk costs a few comparisons per message.
    private static func checkEnvelope(_ frames: [Data], limits: Limits) throws(ProtocolViolation) -> Command {
        guard frames.count <= limits.maxFrames else {
            throw ProtocolViolation(
                .tooManyFrames,
                "\(frames.count) frames, more than the limit of \(limits.maxFrames)"
            )
        }
        guard let signature = frames.first else { throw ProtocolViolation(.missingFrame, "no frames") }
        guard signature == MillWire.signature else {
            throw ProtocolViolation(.wrongSignature, "first frame is \(describe(signature)), not \"PMILL1\"")
        }
        guard frames.count >= 2 else { throw ProtocolViolation(.missingFrame, "no command frame") }
        guard frames[1].count == 1, let command = Command(rawValue: frames[1][frames[1].startIndex]) else {
            throw ProtocolViolation(.unknownCommand, "command frame is \(describe(frames[1]))")
        }
        guard frames.count >= MillWire.fixedFrameCount else {
            throw ProtocolViolation(.missingFrame, command: command, "\(command) has no body frame")
        }
        guard frames[2].count <= limits.maxBodyBytes else {
            throw ProtocolViolation(
                .frameTooLarge,
                command: command,
                "\(command) body is \(frames[2].count) bytes, more than \(limits.maxBodyBytes)"
            )
        }
        try checkBlobFrames(frames.dropFirst(MillWire.fixedFrameCount), command: command, limits: limits)
        return command
    }

    private static func checkBlobFrames(
        _ blobs: some Collection<Data>,
        command: Command,
        limits: Limits
    ) throws(ProtocolViolation) {
        if !command.carriesBlobs && !blobs.isEmpty {
            throw ProtocolViolation(
                .unexpectedBlob,
                command: command,
                "\(command) takes no blob frames but \(blobs.count) follow"
            )
        }
        guard blobs.count <= limits.maxBlobs else {
            throw ProtocolViolation(
                .tooManyFrames,
                command: command,
                "\(blobs.count) blob frames, more than the limit of \(limits.maxBlobs)"
            )
        }
        for (index, blob) in blobs.enumerated() where blob.count > limits.maxBlobBytes {
            throw ProtocolViolation(
                .frameTooLarge,
                command: command,
                "blob frame \(index) is \(blob.count) bytes, more than \(limits.maxBlobBytes)"
            )
        }
    }

    // MARK: - Bodies

    private static let decodingOptions: BinaryDecodingOptions = {
        var options = BinaryDecodingOptions()
        // Unknown fields come from newer peers (PROTOCOL.md, "Versioning"): skipped, and
        // not kept, so they cannot ride along into re-encoded messages or memory.
        options.discardUnknownFields = true
        // Our deepest message is three levels; a hostile body should not recurse further.
        options.messageDepthLimit = 8
        return options
    }()

    private static func parse<Body: SwiftProtobuf.Message>(
        _ body: Data,
        _ command: Command
    ) throws(ProtocolViolation) -> Body {
        do {
            return try Body(serializedBytes: body, options: decodingOptions)
        } catch BinaryDecodingError.truncated {
            throw ProtocolViolation(.truncatedBody, command: command, "\(command) body ends inside a field")
        } catch {
            throw ProtocolViolation(
                .malformedBody,
                command: command,
                "\(command) body is not a \(Body.protoMessageName): \(error)"
            )
        }
    }

    private static func serialize(_ body: some SwiftProtobuf.Message) -> Data {
        do {
            return try body.serializedBytes()
        } catch {
            // Proto3 messages without required fields, Any or extensions only fail to encode
            // over 2 GiB, which no message within FieldBounds comes near.
            preconditionFailure("encoding \(type(of: body)) failed: \(error)")
        }
    }

    /// A frame from an untrusted peer, for a log line: short, and printable either way.
    private static func describe(_ frame: Data) -> String {
        let shown = frame.prefix(16).map { String(format: "%02x", $0) }.joined()
        return "\(frame.count) bytes (\(shown)\(frame.count > 16 ? "…" : ""))"
    }
}
