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

/// A kind of work done on a photo; with the photo, the unit of state, retry and reporting.
/// The raw values are photomill's names for them everywhere: the catalog's `tasks.kind`,
/// the CLI's `--kinds`, `inspect --json`, the metrics' `kind` label (the wire enum converts
/// at the protocol edge, by `KindDescriptor.wireValue`).
///
/// What each kind is — its tier, lease deadline, code version, needs — is written once, in
/// `descriptor`; everything else derives from it (docs/architecture.md, "A new kind").
public enum Kind: String, CaseIterable, Sendable, Hashable, Codable, Comparable {
    case hash, metadata, thumbnail, ocr, similarity

    /// The one description of each kind. The cases are in `allCases`' order, `index` counting
    /// from 0 (checked by VocabularyTests).
    public var descriptor: KindDescriptor {
        switch self {
        case .hash:
            KindDescriptor(index: 0, wireValue: 1, tier: 0, deadline: 60, codeVersion: 1, needs: [.wholeFile])
        case .metadata:
            KindDescriptor(index: 1, wireValue: 2, tier: 0, deadline: 60, codeVersion: 2, needs: [])
        case .thumbnail:
            KindDescriptor(
                index: 2,
                wireValue: 3,
                tier: 1,
                deadline: 120,
                codeVersion: 2,
                needs: [.pixels],
                recipeParameters: { "size=\($0.thumbnailSize) q=\($0.thumbnailQuality)" }
            )
        case .ocr:
            KindDescriptor(
                index: 3,
                wireValue: 4,
                tier: 2,
                deadline: 300,
                codeVersion: 2,
                needs: [.pixels, .language],
                title: "OCR",
                forVideos: false,
                travelsWithBytes: false,
                recipeParameters: { "lang=\($0.ocrLanguage) side=\($0.ocrMaxSide) min=\($0.ocrMinConfidence)" }
            )
        case .similarity:
            // The perceptual hash of the thumbnail's picture (docs/processing.md, "Similar
            // photos"): in the thumbnail's tier, so the two travel in one job and share one
            // decode; the picture's size shapes the hash.
            KindDescriptor(
                index: 4,
                wireValue: 5,
                tier: 1,
                deadline: 120,
                codeVersion: 3,
                needs: [.pixels],
                recipeParameters: { "side=\($0.thumbnailSize)" }
            )
        }
    }

    public static func < (lhs: Kind, rhs: Kind) -> Bool {
        lhs.descriptor.index < rhs.descriptor.index
    }

    /// Parses "hash,metadata"; a failure names the first unknown kind.
    public static func parseList(_ text: String) -> Result<Set<Kind>, ParseError> {
        var kinds: Set<Kind> = []
        for name in text.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) where !name.isEmpty {
            guard let kind = Kind(rawValue: name.lowercased()) else { return .failure(ParseError(name: name)) }
            kinds.insert(kind)
        }
        return kinds.isEmpty ? .failure(ParseError(name: text)) : .success(kinds)
    }

    /// The names of `kinds` in kind order, comma-separated: the form `--kinds` takes.
    public static func list(_ kinds: some Sequence<Kind>) -> String {
        kinds.sorted().map(\.rawValue).joined(separator: ",")
    }

    /// "hash, metadata, thumbnail, ocr": every kind's name, for help texts and messages.
    public static var names: String { allCases.map(\.rawValue).joined(separator: ", ") }

    public struct ParseError: Error, CustomStringConvertible {
        public let name: String
        public var description: String {
            "unknown kind '\(name)'; the kinds are \(Kind.names)"
        }
    }
}

/// `tasks.state`: pending → leased → done | failed.
public enum TaskState: String, CaseIterable, Sendable, Hashable, Codable {
    case pending, leased, done, failed
}
