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

// The options photomill uses. Times are milliseconds; "default" is libzmq 4.3's.

extension SocketOption where Value == Int {
    /// How long close/termination keeps trying to send queued messages; -1 (default)
    /// forever, 0 drops them at once.
    public static var linger: Self { .int(ZMQ_LINGER, "linger") }
    /// Messages queued per peer before sends fail with EAGAIN (or block); default 1000, 0 none.
    public static var sendHighWaterMark: Self { .int(ZMQ_SNDHWM, "sendHighWaterMark") }
    public static var receiveHighWaterMark: Self { .int(ZMQ_RCVHWM, "receiveHighWaterMark") }
    /// First reconnect delay; default 100.
    public static var reconnectInterval: Self { .int(ZMQ_RECONNECT_IVL, "reconnectInterval") }
    /// Cap for the doubling reconnect delay; default 0 (no doubling).
    public static var reconnectIntervalMax: Self { .int(ZMQ_RECONNECT_IVL_MAX, "reconnectIntervalMax") }
    /// A blocking send gives up after this (``ZMQSocket/send(_:dontWait:)`` returns
    /// false); -1 (default) never.
    public static var sendTimeout: Self { .int(ZMQ_SNDTIMEO, "sendTimeout") }
    /// A blocking receive gives up after this (``ZMQSocket/receive(dontWait:)`` returns
    /// nil); -1 (default) never.
    public static var receiveTimeout: Self { .int(ZMQ_RCVTIMEO, "receiveTimeout") }
    /// ZMTP PING interval per connection; 0 (default) off.
    public static var heartbeatInterval: Self { .int(ZMQ_HEARTBEAT_IVL, "heartbeatInterval") }
    /// How long to wait for any traffic after a PING before dropping the connection.
    public static var heartbeatTimeout: Self { .int(ZMQ_HEARTBEAT_TIMEOUT, "heartbeatTimeout") }
    /// The timeout the peer is asked to apply to us (rounded down to 100 ms steps).
    public static var heartbeatTTL: Self { .int(ZMQ_HEARTBEAT_TTL, "heartbeatTTL") }
    /// A connection whose ZMTP handshake (greeting, security) has not finished after this
    /// is closed; default 30,000, 0 never.
    public static var handshakeInterval: Self { .int(ZMQ_HANDSHAKE_IVL, "handshakeInterval") }
    /// SO_KEEPALIVE: -1 (default) leaves the OS setting, 0 off, 1 on.
    public static var tcpKeepalive: Self { .int(ZMQ_TCP_KEEPALIVE, "tcpKeepalive") }
}

extension SocketOption where Value == Int64 {
    /// The largest frame a peer may send; a larger one makes libzmq drop that connection
    /// (the frame is never delivered). -1 (default) no limit. It limits each frame, not
    /// the message, which is why the socket also has `maxFrames`.
    public static var maxMessageSize: Self { .int64(ZMQ_MAXMSGSIZE, "maxMessageSize") }
}

extension SocketOption where Value == Bool {
    /// ROUTER: sending to an unknown routing id throws EHOSTUNREACH instead of dropping
    /// the message silently, and a full peer gives EAGAIN. Write-only in libzmq 4.3.
    public static var routerMandatory: Self { .bool(ZMQ_ROUTER_MANDATORY, "routerMandatory") }
    /// Queue messages only to completed connections, so a peerless socket refuses to send.
    public static var immediate: Self { .bool(ZMQ_IMMEDIATE, "immediate") }
    /// This socket is the CURVE server; set `curveSecretKey` too.
    public static var curveServer: Self { .bool(ZMQ_CURVE_SERVER, "curveServer") }
    /// ZMQ_ZAP_ENFORCE_DOMAIN: together with `zapDomain`, a CURVE handshake fails when no
    /// ZAP handler is bound at inproc://zeromq.zap.01, instead of admitting every client
    /// that knows the server key. What libzmq 4.3.4 does (asserted in ZAPTests):
    ///
    /// - off (default): a bound handler is asked about every CURVE client, with or without
    ///   a domain; with no handler bound, every client is admitted.
    /// - on, `zapDomain` set: as above, but with no handler bound every client is refused.
    /// - on, `zapDomain` empty: ZAP is skipped altogether and every client is admitted,
    ///   even when a handler is bound. Always set a domain with it.
    ///
    /// zmq.h declares it (93) only under ZMQ_BUILD_DRAFT_API, and Debian's build reports
    /// `ZMQ.has("draft") == false`, yet setsockopt accepts and applies it.
    public static var zapEnforceDomain: Self { .bool(zapEnforceDomainCode, "zapEnforceDomain") }
}

/// Not in the non-draft zmq.h; the value is fixed by libzmq's ABI.
private let zapEnforceDomainCode: Int32 = 93

extension SocketOption where Value == Data {
    /// The routing id a ROUTER peer sees as frame 0 of our messages; 1 to 255 bytes, set
    /// before connecting.
    public static var routingId: Self { .bytes(ZMQ_ROUTING_ID, "routingId", capacity: 255) }
}

extension SocketOption where Value == String {
    /// Our CURVE public key, 40 Z85 characters (clients; servers need only the secret).
    public static var curvePublicKey: Self { .z85Key(ZMQ_CURVE_PUBLICKEY, "curvePublicKey") }
    /// Our CURVE secret key, 40 Z85 characters.
    public static var curveSecretKey: Self { .z85Key(ZMQ_CURVE_SECRETKEY, "curveSecretKey") }
    /// The server's CURVE public key, 40 Z85 characters; setting it makes this a client.
    public static var curveServerKey: Self { .z85Key(ZMQ_CURVE_SERVERKEY, "curveServerKey") }
    /// The domain passed to the ZAP handler; see `zapEnforceDomain`. 1 to 255 bytes:
    /// libzmq 4.3.4 refuses an empty one, so a domain cannot be cleared once set.
    public static var zapDomain: Self { .string(ZMQ_ZAP_DOMAIN, "zapDomain", capacity: 256, lengths: 1...255) }

    private static func z85Key(_ code: Int32, _ name: String) -> Self {
        .string(code, name, capacity: Curve.keyLength + 1, lengths: Curve.keyLength...Curve.keyLength)
    }
}
