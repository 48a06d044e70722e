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
import Testing
import ZeroMQ

@Suite struct ContextTests {
    @Test func shutdownUnblocksAReceivingThread() throws {
        let context = try ZMQContext()
        let socket = try ZMQSocket(context: context, type: .pull)
        try socket.set(.linger, to: 0)
        try socket.bind("inproc://shutdown")

        let outcome = Shared<ZMQError?>(nil)
        let finished = DispatchSemaphore(value: 0)
        // The socket moves to this thread, which alone uses it from here on.
        Thread {
            do throws(ZMQError) {
                _ = try socket.receive()
            } catch {
                outcome.value = error
            }
            socket.close()
            finished.signal()
        }.start()

        Thread.sleep(forTimeInterval: 0.2)
        context.shutdown()
        #expect(finished.wait(timeout: .now() + 10) == .success)
        #expect(outcome.value?.code == .terminated)
    }
}
