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
import Synchronization
import ZeroMQ

extension ZMQSocket {
    /// A socket for tests: linger 0, so a failing test never waits on context termination,
    /// and a receive timeout, so a message that never comes fails the test instead of
    /// hanging it.
    static func forTest(_ context: ZMQContext, _ type: SocketType, receiveTimeout: Int = 5000) throws -> ZMQSocket {
        let socket = try ZMQSocket(context: context, type: type)
        try socket.set(.linger, to: 0)
        try socket.set(.receiveTimeout, to: receiveTimeout)
        return socket
    }
}

enum Transport: String, CaseIterable, Sendable {
    case inproc, ipc, tcp

    /// A fresh endpoint to bind; connect to the binder's `lastEndpoint`.
    var bindEndpoint: String {
        let unique = UUID().uuidString.prefix(8)
        switch self {
        case .inproc: return "inproc://test-\(unique)"
        case .ipc: return "ipc://\(FileManager.default.temporaryDirectory.path)/photomill-\(unique).sock"
        case .tcp: return "tcp://127.0.0.1:*"
        }
    }
}

extension Data {
    init(_ text: String) { self.init(text.utf8) }

    static func random(count: Int) -> Data {
        var generator = SystemRandomNumberGenerator()
        var data = Data(count: count)
        data.withUnsafeMutableBytes { bytes in
            // Eight bytes a step: byte by byte takes seconds in a debug build.
            let words = count / 8
            for word in 0..<words {
                bytes.storeBytes(of: generator.next() as UInt64, toByteOffset: word * 8, as: UInt64.self)
            }
            for index in words * 8..<count { bytes[index] = generator.next() }
        }
        return data
    }
}

/// A value shared with a thread the test starts.
final class Shared<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>

    init(_ value: Value) { mutex = Mutex(value) }

    var value: Value {
        get { mutex.withLock { $0 } }
        set { mutex.withLock { $0 = newValue } }
    }

    func update(_ body: (inout Value) -> Void) { mutex.withLock { body(&$0) } }
}
