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

import CZeroMQ
import Foundation

/// A typed socket option, used as `try socket.set(.linger, to: 0)` and
/// `try socket.get(.routingId)`. The options themselves are listed in
/// SocketOption+Standard.swift; each knows its C code and how its value is laid out.
public struct SocketOption<Value>: Sendable {
    /// The option's name in error messages, e.g. `linger`.
    public let name: String
    let read: @Sendable (UnsafeMutableRawPointer) throws(ZMQError) -> Value
    let write: @Sendable (UnsafeMutableRawPointer, Value) throws(ZMQError) -> Void
}

extension SocketOption where Value == Int {
    /// A C `int` option.
    static func int(_ code: Int32, _ name: String) -> Self {
        Self(
            name: name,
            read: { handle throws(ZMQError) in Int(try RawOption.scalar(Int32.self, handle, code, name)) },
            write: { handle, value throws(ZMQError) in
                guard let raw = Int32(exactly: value) else {
                    throw ZMQError(
                        code: .invalidArgument,
                        operation: "setsockopt \(name) \(value)",
                        reason: "value does not fit a C int"
                    )
                }
                try RawOption.setScalar(raw, handle, code, name)
            }
        )
    }
}

extension SocketOption where Value == Bool {
    /// A C `int` option that libzmq reads as 0 or 1.
    static func bool(_ code: Int32, _ name: String) -> Self {
        Self(
            name: name,
            read: { handle throws(ZMQError) in try RawOption.scalar(Int32.self, handle, code, name) != 0 },
            write: { handle, value throws(ZMQError) in try RawOption.setScalar(Int32(value ? 1 : 0), handle, code, name)
            }
        )
    }
}

extension SocketOption where Value == Int64 {
    static func int64(_ code: Int32, _ name: String) -> Self {
        Self(
            name: name,
            read: { handle throws(ZMQError) in try RawOption.scalar(Int64.self, handle, code, name) },
            write: { handle, value throws(ZMQError) in try RawOption.setScalar(value, handle, code, name) }
        )
    }
}

extension SocketOption where Value == Data {
    /// A binary option of at most `capacity` bytes.
    static func bytes(_ code: Int32, _ name: String, capacity: Int) -> Self {
        Self(
            name: name,
            read: { handle throws(ZMQError) in Data(try RawOption.bytes(handle, code, name, capacity: capacity)) },
            write: { handle, value throws(ZMQError) in try RawOption.setBytes(value, handle, code, name) }
        )
    }
}

extension SocketOption where Value == String {
    /// A text option. libzmq returns it NUL-terminated and only into a buffer of the right
    /// size for some options (a Z85 key needs exactly 41 bytes), hence `capacity`;
    /// `lengths`, where given, is checked first so that the error can say what is wrong.
    static func string(_ code: Int32, _ name: String, capacity: Int, lengths: ClosedRange<Int>? = nil) -> Self {
        Self(
            name: name,
            read: { handle throws(ZMQError) in
                let bytes = try RawOption.bytes(handle, code, name, capacity: capacity)
                return String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
            },
            write: { handle, value throws(ZMQError) in
                let bytes = Array(value.utf8)
                if let lengths, !lengths.contains(bytes.count) {
                    let expected =
                        lengths.count == 1 ? "\(lengths.lowerBound)" : "\(lengths.lowerBound) to \(lengths.upperBound)"
                    throw ZMQError(
                        code: .invalidArgument,
                        operation: "setsockopt \(name)",
                        reason: "expected \(expected) bytes, got \(bytes.count)"
                    )
                }
                try RawOption.setBytes(bytes, handle, code, name)
            }
        )
    }
}

/// zmq_getsockopt / zmq_setsockopt on plain bytes.
enum RawOption {
    static func scalar<T: FixedWidthInteger>(
        _: T.Type,
        _ handle: UnsafeMutableRawPointer,
        _ code: Int32,
        _ name: String
    ) throws(ZMQError) -> T {
        var value = T.zero
        var size = MemoryLayout<T>.size
        guard zmq_getsockopt(handle, code, &value, &size) == 0 else { throw ZMQError.last("getsockopt \(name)") }
        return value
    }

    static func setScalar<T: FixedWidthInteger>(
        _ value: T,
        _ handle: UnsafeMutableRawPointer,
        _ code: Int32,
        _ name: String
    ) throws(ZMQError) {
        var value = value
        guard zmq_setsockopt(handle, code, &value, MemoryLayout<T>.size) == 0 else {
            throw ZMQError.last("setsockopt \(name) \(value)")
        }
    }

    static func bytes(
        _ handle: UnsafeMutableRawPointer,
        _ code: Int32,
        _ name: String,
        capacity: Int
    ) throws(ZMQError) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: capacity)
        var size = capacity
        guard zmq_getsockopt(handle, code, &buffer, &size) == 0 else { throw ZMQError.last("getsockopt \(name)") }
        return Array(buffer.prefix(size))
    }

    static func setBytes(
        _ bytes: some ContiguousBytes,
        _ handle: UnsafeMutableRawPointer,
        _ code: Int32,
        _ name: String
    ) throws(ZMQError) {
        let rc = bytes.withUnsafeBytes { zmq_setsockopt(handle, code, $0.baseAddress, $0.count) }
        guard rc == 0 else { throw ZMQError.last("setsockopt \(name)") }
    }
}
