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

import ZeroMQ

/// Why the worker cannot talk to its coordinator, read from its socket's monitor events
/// (libzmq tells a connecting socket's causes to nobody else): the cause a person can act
/// on, each said once rather than on every retry, until a handshake succeeds. Without
/// it, every one of them read "coordinator is silent". The events of each cause, as
/// libzmq 4.3 sends them, were recorded with a C probe against real sockets:
///
/// | cause | events |
/// |---|---|
/// | refused (tcp) | connect delayed, closed, connect retried |
/// | nothing at an ipc path | closed, connect retried |
/// | unknown host | connect retried alone (no descriptor was ever opened) |
/// | key not allowed (ZAP) | connected, handshake failed: auth 400, disconnected |
/// | wrong server key | connected, handshake failed: no detail (the coordinator hung up), disconnected |
/// | CURVE against plain, or plain against CURVE | connected, handshake failed: protocol, mechanism mismatch; or, as the race between the two greetings goes, no detail |
///
/// A handshake failed without detail is told apart by the mechanism the coordinator's
/// greeting names (`GreetingProbe`), asked for only when it could change what is said.
struct ConnectionDiagnosis {
    enum Cause: Equatable {
        case refused
        case unknownHost
        case keyNotAllowed(status: UInt32)
        case serverKeyWrong
        /// This worker runs CURVE; the coordinator does not.
        case coordinatorInsecure
        /// The coordinator runs CURVE; this worker does not.
        case coordinatorRequiresCurve
        case handshakeFailed
    }

    let endpoint: String
    /// Whether this worker runs CURVE (`--key`, `--server-key`).
    let curve: Bool
    /// The cause said last; nil once a handshake succeeds.
    private(set) var reported: Cause?
    /// What the current connection attempt went through.
    private var delayed = false
    private var closed = false
    private var connected = false

    init(endpoint: String, curve: Bool) {
        self.endpoint = endpoint
        self.curve = curve
    }

    /// Returns a cause when it is new: the one to say. `peerMechanism` tells the mechanism
    /// the coordinator runs ("NULL", "CURVE"), or nil if it cannot be learnt.
    mutating func observe(_ event: MonitorEvent, peerMechanism: () -> String?) -> Cause? {
        let cause: Cause
        switch event.kind {
        case .connectDelayed:
            delayed = true
            return nil
        case .closed:
            closed = true
            return nil
        case .connected:
            connected = true
            return nil
        case .connectRetried:
            defer { (delayed, closed, connected) = (false, false, false) }
            // After a connection, the retry follows a failed handshake, already said.
            guard !connected else { return nil }
            cause = endpoint.hasPrefix("tcp://") && !delayed && !closed ? .unknownHost : .refused
        case .handshakeSucceeded:
            reported = nil
            return nil
        case .handshakeFailedAuth:
            cause = .keyNotAllowed(status: event.value)
        case .handshakeFailedProtocol where event.value == MonitorEvent.ProtocolError.mechanismMismatch:
            cause = curve ? .coordinatorInsecure : .coordinatorRequiresCurve
        case .handshakeFailedProtocol where event.value == MonitorEvent.ProtocolError.cryptographic:
            cause = .serverKeyWrong
        case .handshakeFailedProtocol:
            cause = .handshakeFailed
        case .handshakeFailedNoDetail:
            // A handshake cause said already stands: the probe would only confirm it.
            guard reported == nil || reported == .refused || reported == .unknownHost else { return nil }
            switch (curve, peerMechanism()) {
            case (true, "NULL"): cause = .coordinatorInsecure
            case (false, "CURVE"): cause = .coordinatorRequiresCurve
            case (true, _): cause = .serverKeyWrong
            case (false, _): cause = .handshakeFailed
            }
        default:
            return nil
        }
        guard cause != reported else { return nil }
        reported = cause
        return cause
    }

    /// The cause in words, with what to do.
    func message(_ cause: Cause) -> String {
        switch cause {
        case .refused where endpoint.hasPrefix("ipc://"):
            "no coordinator listens at \(endpoint.dropFirst(6)): start it, or check the path given to --connect"
        case .refused:
            "connection refused: nothing listens at \(endpoint); start the coordinator there, or check the host and port given to --connect"
        case .unknownHost:
            "unknown host \(host): the name does not resolve; check it in --connect, or give the coordinator's IP address"
        case .keyNotAllowed(let status):
            "CURVE handshake failed: the coordinator at \(endpoint) does not allow this worker's key (status \(status)); add this worker's public key (its .pub file) to the coordinator's --allow file (docs/deploy.md)"
        case .serverKeyWrong:
            "CURVE handshake failed: the coordinator at \(endpoint) hung up during the handshake, so --server-key is most likely not its public key; copy its .pub file again (docs/deploy.md)"
        case .coordinatorInsecure:
            "the coordinator at \(endpoint) runs without CURVE (--insecure) but this worker uses CURVE: give the worker --insecure too, or the coordinator --key"
        case .coordinatorRequiresCurve:
            "the coordinator at \(endpoint) requires CURVE but this worker runs --insecure: give the worker --key and --server-key (docs/deploy.md)"
        case .handshakeFailed:
            "the handshake with \(endpoint) failed: check that --connect names a photomill coordinator"
        }
    }

    /// The host of a tcp:// endpoint (`tcp://nas:5555` → `nas`, `tcp://[::1]:5555` → `::1`).
    private var host: String {
        let address = endpoint.dropFirst("tcp://".count)
        let name = address.lastIndex(of: ":").map { address[..<$0] } ?? address
        return String(name.trimmingPrefix("[").prefix { $0 != "]" })
    }
}
