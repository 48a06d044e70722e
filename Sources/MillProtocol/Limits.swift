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

/// Size caps applied before any protobuf decoding, so that a hostile or broken peer costs
/// at most one bounded allocation. Set `ZMQ_MAXMSGSIZE` to `maxFrameBytes` on every socket
/// so libzmq refuses an oversized frame before it is buffered at all (PROTOCOL.md, "Size
/// limits").
public struct Limits: Sendable, Hashable {
    /// Frames in one message, signature, command and body included.
    /// Default 16: three fixed frames and up to 13 blob frames.
    public var maxFrames: Int
    /// Bytes of the protobuf body. Default 1 MiB: the largest legitimate body, a RESULT
    /// with the longest OCR text (256 KiB) and every other field at its bound, is well under.
    public var maxBodyBytes: Int
    /// Bytes of one blob frame. Default 64 MiB: a thumbnail is kilobytes; a file sent as
    /// bytes larger than this is split over several frames.
    public var maxBlobBytes: Int

    public init(maxFrames: Int = 16, maxBodyBytes: Int = 1 << 20, maxBlobBytes: Int = 64 << 20) {
        self.maxFrames = maxFrames
        self.maxBodyBytes = maxBodyBytes
        self.maxBlobBytes = maxBlobBytes
    }

    /// The documented defaults.
    public static let `default` = Limits()

    /// The largest frame allowed: the value for `ZMQ_MAXMSGSIZE`.
    public var maxFrameBytes: Int { max(maxBodyBytes, maxBlobBytes) }

    /// The most blob frames one message may carry.
    public var maxBlobs: Int { max(0, maxFrames - MillWire.fixedFrameCount) }

    /// The largest file a JOB can carry as blob frames, one frame being kept for its XMP
    /// sidecar (16 MiB at most); a larger one must be read from a path the worker shares.
    public var maxFileBytes: Int { max(0, maxBlobs - 1) * maxBlobBytes }
}
