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
    /// sleep (which nothing steps during a test).
    @Test("the monotonic clock advances with real time")
    func advances() {
        let monotonic = MonotonicInstant.now(), wall = WallClock.now()
        Thread.sleep(forTimeInterval: 0.2)
        let elapsed = MonotonicInstant.now() - monotonic
        #expect(elapsed >= 0.2 && elapsed < 2)
        #expect(abs(elapsed - (WallClock.now() - wall)) < 0.05)
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
