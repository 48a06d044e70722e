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

import PhotomillCore

// The protocol edge of `Kind`: the wire enum is converted here and nowhere else, by each
// kind's `KindDescriptor.wireValue`.

extension Kind {
    /// The kind a wire value names; nil for `KIND_UNSPECIFIED` and for values from a newer
    /// protocol revision.
    public init?(_ wire: Photomill_V1_Kind) {
        guard Self.byWireValue.indices.contains(wire.rawValue), let kind = Self.byWireValue[wire.rawValue] else {
            return nil
        }
        self = kind
    }

    /// Indexed by wire value.
    private static let byWireValue: [Kind?] = {
        var kinds = [Kind?](repeating: nil, count: (allCases.map(\.descriptor.wireValue).max() ?? 0) + 1)
        for kind in allCases { kinds[kind.descriptor.wireValue] = kind }
        return kinds
    }()
}

extension Photomill_V1_Kind {
    /// The known kinds, in `Kind`'s order.
    public static let known: [Photomill_V1_Kind] = Kind.allCases.map(Photomill_V1_Kind.init)

    public init(_ kind: Kind) {
        self = Photomill_V1_Kind(rawValue: kind.descriptor.wireValue) ?? .UNRECOGNIZED(kind.descriptor.wireValue)
    }

    /// "hash", "metadata", "thumbnail", "ocr" (`Kind`'s names); `kind(N)` for values this
    /// code does not know, for messages.
    public var name: String {
        if let kind = Kind(self) { return kind.rawValue }
        return self == .unspecified ? "unspecified" : "kind(\(rawValue))"
    }
}
