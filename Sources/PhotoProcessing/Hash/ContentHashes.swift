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

import Crypto
import Foundation

/// MD5 (the content key of the exports) and SHA-256 (integrity) of a file's bytes.
public struct ContentHashes: Sendable, Hashable, Codable {
    public let md5: String
    public let sha256: String

    public init(md5: String, sha256: String) {
        self.md5 = md5
        self.sha256 = sha256
    }

    public init(of bytes: UnsafeRawBufferPointer) {
        md5 = Insecure.MD5.hash(data: bytes).hex
        sha256 = SHA256.hash(data: bytes).hex
    }
}

extension Digest {
    var hex: String {
        var text = ""
        text.reserveCapacity(Self.byteCount * 2)
        for byte in self {
            text.append(Character(Unicode.Scalar(hexDigits[Int(byte >> 4)])))
            text.append(Character(Unicode.Scalar(hexDigits[Int(byte & 0x0f)])))
        }
        return text
    }
}

private let hexDigits = Array("0123456789abcdef".utf8)
