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
import ZeroMQ

/// CURVE key files, for both ends: `photomill keys generate` writes them, the coordinator
/// reads its NAME.key, a worker its own NAME.key and the coordinator's NAME.pub. A key file
/// holds one Z85 key (40 characters) on its first line that is not a comment (`#`),
/// optionally followed by a label. Errors name the flag and the file, never the secret.
public enum KeyFile {
    public struct Failure: Error, CustomStringConvertible, Sendable {
        public let description: String
        public init(description: String) { self.description = description }
    }

    /// Writes a new pair, `NAME.key` (secret, mode 0600) and `NAME.pub` (public: the key
    /// and the name, one line, for an allow-list), never replacing a file.
    public static func generate(_ name: String) throws(Failure) {
        guard Curve.isAvailable else {
            throw Failure(description: "this libzmq was built without CURVE (install Debian's libzmq5)")
        }
        let pair: (publicKey: String, secretKey: String)
        do {
            pair = try Curve.generateKeyPair()
        } catch {
            throw Failure(description: "cannot make a key pair: \(error)")
        }
        let label = URL(fileURLWithPath: name).lastPathComponent
        try create(
            name + ".key",
            mode: 0o600,
            text: """
                # photomill CURVE secret key "\(label)": keep it private (mode 0600); never share it
                \(pair.secretKey)

                """
        )
        try create(name + ".pub", mode: 0o644, text: "\(pair.publicKey) \(label)\n")
    }

    /// Creates `path` (never replacing a file) with `mode` whatever the umask.
    static func create(_ path: String, mode: mode_t, text: String) throws(Failure) {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard fd >= 0 else {
            let cause = String(cString: strerror(errno))
            throw Failure(
                description:
                    "\(path): cannot create: \(cause)\(errno == EEXIST ? " (remove it first, or choose another --out)" : "")"
            )
        }
        defer { close(fd) }
        let bytes = Array(text.utf8)
        guard fchmod(fd, mode) == 0, write(fd, bytes, bytes.count) == bytes.count, fsync(fd) == 0 else {
            let cause = String(cString: strerror(errno))
            unlink(path)
            throw Failure(description: "\(path): cannot write: \(cause)")
        }
    }

    /// The public key in `path` (a NAME.pub), for `flag`.
    public static func publicKey(_ path: String, flag: String) throws(Failure) -> String {
        if kind(of: path) == .secret {
            throw Failure(
                description: """
                    \(flag) \(path): this is a secret key (a NAME.key); \(flag) takes the coordinator's public key, \
                    its NAME.pub. Keep the secret key on its own host, mode 0600
                    """
            )
        }
        let key = try firstKey(path, flag: flag)
        guard (try? Curve.z85Decode(key))?.count == 32 else {
            throw Failure(
                description:
                    "\(flag) \(path): not a Z85 public key (40 characters); give the NAME.pub written by `photomill keys generate`"
            )
        }
        return key
    }

    /// The key pair whose secret is in `path` (a NAME.key, mode 0600 or stricter).
    public static func keyPair(_ path: String, flag: String) throws(Failure) -> (publicKey: String, secretKey: String) {
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw Failure(description: "\(flag) \(path): \(String(cString: strerror(errno)))")
        }
        if kind(of: path) == .public {
            throw Failure(
                description: """
                    \(flag) \(path): this is a public key (a NAME.pub); \(flag) takes a secret key, the NAME.key \
                    written beside it by `photomill keys generate`
                    """
            )
        }
        guard info.st_mode & 0o077 == 0 else {
            throw Failure(
                description:
                    "\(flag) \(path): a secret key must not be readable by group or others (mode \(String(info.st_mode & 0o777, radix: 8))); run chmod 600 \(path)"
            )
        }
        let secret = try firstKey(path, flag: flag)
        guard let publicKey = try? Curve.publicKey(fromSecret: secret) else {
            throw Failure(
                description:
                    "\(flag) \(path): not a Z85 secret key (40 characters); give the NAME.key written by `photomill keys generate`"
            )
        }
        return (publicKey, secret)
    }

    enum Kind { case secret, `public`, unknown }

    /// More than any key file holds (a key, its label and a comment); the rest is not read.
    static let maxKeyFileBytes = 64 << 10

    /// What `photomill keys generate` made the file: a NAME.key starts with its "secret key"
    /// comment; a NAME.pub is one line, the key and its label. (The 40 characters alone
    /// cannot tell: any 32 bytes are a secret key.)
    static func kind(of path: String) -> Kind {
        guard let data = try? RegularFile.contents(of: path, upTo: maxKeyFileBytes) else { return .unknown }
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n").map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        if lines.contains(where: { $0.hasPrefix("#") && $0.contains("CURVE secret key") }) { return .secret }
        let keys = lines.filter { !$0.isEmpty && !$0.hasPrefix("#") }
        if path.hasSuffix(".pub") { return .public }
        if keys.count == 1, keys[0].split(separator: " ").count >= 2,
            keys[0].prefix(while: { !$0.isWhitespace }).utf8.count == Curve.keyLength
        {
            return .public
        }
        return .unknown
    }

    private static func firstKey(_ path: String, flag: String) throws(Failure) -> String {
        let data: Data
        do {
            data = try RegularFile.contents(of: path, upTo: maxKeyFileBytes)
        } catch {
            throw Failure(description: "\(flag) \(path): cannot read the file: \(error.cause)")
        }
        for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            let key = String(trimmed.prefix { !$0.isWhitespace })
            guard key.utf8.count == Curve.keyLength else { break }
            return key
        }
        throw Failure(
            description:
                "\(flag) \(path): no key found (expected a line of 40 Z85 characters, as written by `photomill keys generate`)"
        )
    }
}
