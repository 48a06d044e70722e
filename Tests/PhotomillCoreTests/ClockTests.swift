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
import PhotomillCore
import Testing

@Suite("Clocks and owned threads")
struct ClockTests {
    @Test("monotonic instants add and subtract seconds exactly to the nanosecond")
    func arithmetic() {
        let start = MonotonicInstant(nanoseconds: 5_000_000_000)
        #expect((start + 1.5).nanoseconds == 6_500_000_000)
        #expect((start - 0.25).nanoseconds == 4_750_000_000)
        #expect((start + 1.5) - start == 1.5)
        #expect(start < start + 0.000_000_001)
    }

    /// CLOCK_MONOTONIC runs at the rate of real time: compared with the wall clock over a
    /// sleep (which nothing steps during a test). Each monotonic reading lies between two
    /// wall readings, so the wall clock brackets the monotonic time however long the
    /// thread waits between readings on a busy machine.
    @Test("the monotonic clock advances with real time")
    func advances() {
        let wallBefore = WallClock.now()
        let monotonic = MonotonicInstant.now()
        let wallAfter = WallClock.now()
        Thread.sleep(forTimeInterval: 0.2)
        let endBefore = WallClock.now()
        let end = MonotonicInstant.now()
        let endAfter = WallClock.now()
        let elapsed = end - monotonic
        #expect(elapsed >= 0.2)
        #expect(
            elapsed >= endBefore - wallAfter - 0.001 && elapsed <= endAfter - wallBefore + 0.001,
            "monotonic \(elapsed) s, wall between \(endBefore - wallAfter) and \(endAfter - wallBefore) s"
        )
    }

    @Test("an owned thread's value is waited for by a thread and by a task, without polling")
    func ownedThread() async {
        let gate = DispatchSemaphore(value: 0)
        let thread = OwnedThread(name: "pm-test") { () -> String in
            gate.wait()
            return (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8))?
                .trimmingCharacters(in: .newlines) ?? "?"
        }
        #expect(!thread.isFinished)
        gate.signal()
        #expect(await thread.value == "pm-test")
        #expect(thread.join() == "pm-test")
        #expect(thread.isFinished)
    }
}
