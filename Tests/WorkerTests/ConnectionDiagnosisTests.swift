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

import Testing
import ZeroMQ

@testable import Worker

/// The monitor events of each cause, as a C probe and the worker's trace log recorded
/// them from libzmq 4.3.4 on real sockets (ConnectionDiagnosis's table): each cause is
/// named, and said once; the coordinator's greeting is asked for only when it decides.
@Suite("Connection diagnosis")
struct ConnectionDiagnosisTests {
    typealias Cause = ConnectionDiagnosis.Cause
    typealias Events = [(MonitorEvent.Kind, UInt32)]

    static let refused: Events = [(.connectDelayed, 115), (.closed, 12), (.connectRetried, 183)]
    /// A handshake the coordinator hung up on, and libzmq's retry after it.
    static let hungUp: Events = [
        (.connectDelayed, 115), (.connected, 14), (.handshakeFailedNoDetail, 32), (.disconnected, 14),
        (.connectRetried, 125),
    ]
    static let mismatch: Events = [
        (.connectDelayed, 115), (.connected, 14), (.handshakeFailedProtocol, 0x1100_0002), (.disconnected, 14),
    ]

    /// The causes said, and how often the coordinator's mechanism was asked for.
    func causes(
        _ endpoint: String = "tcp://nas:5555",
        curve: Bool,
        mechanism: String? = nil,
        _ events: Events
    ) -> (said: [Cause], probes: Int) {
        var diagnosis = ConnectionDiagnosis(endpoint: endpoint, curve: curve)
        var probes = 0
        let said = events.compactMap { event in
            diagnosis.observe(MonitorEvent(kind: event.0, value: event.1, endpoint: endpoint)) {
                probes += 1
                return mechanism
            }
        }
        return (said, probes)
    }

    @Test func refusedUnknownHostAndAMissingIPCSocketAreToldApartAndSaidOnce() {
        #expect(causes(curve: false, Self.refused + Self.refused + Self.refused).said == [.refused])
        #expect(
            causes("tcp://nosuchhost.invalid:5555", curve: false, [(.connectRetried, 183), (.connectRetried, 125)]).said
                == [.unknownHost]
        )
        #expect(
            causes(
                "ipc:///run/photomill.sock",
                curve: false,
                [(.closed, 12), (.connectRetried, 183), (.closed, 12), (.connectRetried, 125)]
            ).said == [.refused]
        )
    }

    @Test func aHangUpIsAWrongServerKeyUnlessTheGreetingNamesAnotherMechanism() {
        let wrongKey = causes(curve: true, mechanism: "CURVE", Self.hungUp + Self.hungUp + Self.hungUp)
        #expect(wrongKey.said == [.serverKeyWrong], "the retry after a failed handshake is no refusal")
        #expect(wrongKey.probes == 1, "asked once, not on every retry")
        #expect(
            causes(curve: true, mechanism: "NULL", Self.hungUp + Self.mismatch + Self.hungUp).said == [
                .coordinatorInsecure
            ],
            "the hang-up and the mismatch of one race are one cause"
        )
        #expect(
            causes(curve: false, mechanism: "CURVE", Self.hungUp + Self.mismatch).said == [.coordinatorRequiresCurve]
        )
        #expect(
            causes(curve: false, mechanism: nil, Self.hungUp).said == [.handshakeFailed],
            "no CURVE, so no key to blame"
        )
    }

    @Test func curveRefusalsAndMismatchesAreNamedByWhatTheWorkerCanChange() {
        #expect(
            causes(curve: true, [(.connected, 14), (.handshakeFailedAuth, 400), (.disconnected, 14)]).said == [
                .keyNotAllowed(status: 400)
            ]
        )
        #expect(causes(curve: true, Self.mismatch + Self.mismatch) == ([.coordinatorInsecure], 0))
        #expect(causes(curve: false, Self.mismatch).said == [.coordinatorRequiresCurve])
    }

    /// A cause is said again only after a connection got through in between, or when
    /// another takes its place.
    @Test func aCauseIsSaidAgainOnlyAfterASuccessOrAnotherCause() {
        let success: Events = [
            (.connectDelayed, 115), (.connected, 14), (.handshakeSucceeded, 0), (.disconnected, 14),
            (.connectRetried, 125),
        ]
        #expect(
            causes(curve: true, mechanism: "CURVE", Self.refused + success + Self.refused + Self.hungUp + Self.refused)
                .said
                == [.refused, .refused, .serverKeyWrong, .refused]
        )
    }

    @Test func messagesNameTheHostAndWhatToDo() {
        let diagnosis = ConnectionDiagnosis(endpoint: "tcp://[fd00::7]:5555", curve: true)
        #expect(diagnosis.message(.unknownHost).hasPrefix("unknown host fd00::7:"))
        #expect(diagnosis.message(.keyNotAllowed(status: 400)).contains("--allow"))
        #expect(diagnosis.message(.serverKeyWrong).contains("--server-key"))
    }
}
