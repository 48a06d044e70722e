import Foundation
import Testing
import ZeroMQ

/// The socket monitor over real sockets: the events zmq_socket_monitor(3) documents, with
/// their values and endpoint, decoded from libzmq's two frames.
@Suite struct MonitorTests {
    /// Every event until `last` arrives (or 5 s pass).
    func events(_ monitor: SocketMonitor, until last: MonitorEvent.Kind) throws -> [MonitorEvent] {
        var seen: [MonitorEvent] = []
        let deadline = Date().addingTimeInterval(5)
        while Date() < deadline, seen.last?.kind != last {
            var poller = Poller()
            poller.register(monitor.socket)
            _ = try poller.poll(timeoutMilliseconds: 100)
            while let event = try monitor.next() { seen.append(event) }
        }
        return seen
    }

    @Test func aConnectionToNobodyIsRetriedAndOneToAPeerSucceeds() throws {
        let context = try ZMQContext()
        // A port held by a TCP socket that never listens: refused, and no other test can
        // take it meanwhile (a port bound and let go can be).
        let holder = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(holder) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let held = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(holder, $0, length) == 0 && getsockname(holder, $0, &length) == 0 }
        }
        #expect(held)
        let endpoint = "tcp://127.0.0.1:\(UInt16(bigEndian: address.sin_port))"

        let lonely = try ZMQSocket(context: context, type: .dealer)
        try lonely.set(.linger, to: 0)
        let lonelyMonitor = try lonely.monitor()
        try lonely.connect(endpoint)
        let retried = try events(lonelyMonitor, until: .connectRetried)
        #expect(retried.map(\.kind) == [.connectDelayed, .closed, .connectRetried], "\(retried)")
        #expect(retried.allSatisfy { $0.endpoint == endpoint })
        // The value of CONNECT_RETRIED is the reconnect interval in milliseconds (libzmq's default, 100, or more).
        #expect((100...1000).contains(retried.last?.value ?? 0))
        lonely.close()
        lonelyMonitor.close()

        let server = try ZMQSocket(context: context, type: .router)
        try server.set(.linger, to: 0)
        try server.bind("tcp://127.0.0.1:*")
        let client = try ZMQSocket(context: context, type: .dealer)
        try client.set(.linger, to: 0)
        let monitor = try client.monitor()
        try client.connect(try server.lastEndpoint)
        let connected = try events(monitor, until: .handshakeSucceeded)
        #expect(connected.map(\.kind) == [.connectDelayed, .connected, .handshakeSucceeded], "\(connected)")
        client.close()
        monitor.close()
        server.close()
    }
}
