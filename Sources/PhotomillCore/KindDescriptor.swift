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

/// What a kind of work is, written once per kind in `Kind.descriptor`: the scheduler, the
/// catalog, the metrics, the wire edge, the CLI's help and filters and the dashboard derive
/// what they need of a kind from here (docs/architecture.md, "A new kind").
public struct KindDescriptor: Sendable {
    /// What a kind's processor needs of the file.
    public struct Needs: OptionSet, Sendable, Hashable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }

        /// Every byte of the file (a digest), not only what a decoder asks for.
        public static let wholeFile = Needs(rawValue: 1 << 0)
        /// Decoded pixels: refused for images over the pixel limit (`too-large`).
        public static let pixels = Needs(rawValue: 1 << 1)
        /// The coordinator's language (`ProcessingParameters.ocrLanguage`): only a worker
        /// that offers it may take the kind (READY's `ocr_languages`).
        public static let language = Needs(rawValue: 1 << 2)
    }

    /// The kind's place in `Kind.allCases` (0, 1, …): arrays by kind are indexed by it.
    public let index: Int
    /// Its value in photomill.proto's `Kind` enum, which never changes once shipped.
    public let wireValue: Int
    /// Its place in the order of work (docs/architecture.md, "The order of work"): tier 0
    /// first across the whole library, then 1, then 2. The kinds of one tier travel in one
    /// job (one read of the file). The catalog's generated column `tasks.tier` follows
    /// (`Schema.tierExpression`).
    public let tier: Int
    /// The lease deadline of a job of this kind, in seconds, unless configured otherwise
    /// (`CoordinatorConfiguration.deadlines`); a worker renews it with EXTEND.
    public let deadline: Double
    /// Bumped when the processor's code changes what it produces for the same input: part
    /// of the recipe, so `reprocess --outdated` requeues older results.
    public let codeVersion: Int
    public let needs: Needs
    /// The kind in words, for messages ("OCR"); its name otherwise.
    public let title: String?
    /// Whether a video has a task of this kind.
    public let forVideos: Bool
    /// For a worker fed bytes, whether this kind travels in the job that sends the photo's
    /// bytes, whatever its tier (PROTOCOL.md, "Each file's bytes once"): a kind whose work
    /// is of the order of tier 0's (a thumbnail's decode), so that the bytes cross once; not
    /// OCR, whose seconds a photo would hold every photo's search back.
    public let travelsWithBytes: Bool
    /// The parameters that shape its result, as its recipe writes them ("size=256 q=80").
    public let recipeParameters: @Sendable (ProcessingParameters) -> String

    public init(
        index: Int,
        wireValue: Int,
        tier: Int,
        deadline: Double,
        codeVersion: Int,
        needs: Needs,
        title: String? = nil,
        forVideos: Bool = true,
        travelsWithBytes: Bool = true,
        recipeParameters: @escaping @Sendable (ProcessingParameters) -> String = { _ in "" }
    ) {
        self.index = index
        self.wireValue = wireValue
        self.tier = tier
        self.deadline = deadline
        self.codeVersion = codeVersion
        self.needs = needs
        self.title = title
        self.forVideos = forVideos
        self.travelsWithBytes = travelsWithBytes
        self.recipeParameters = recipeParameters
    }

    /// A job's lease deadline when it names no kind's: PROTOCOL.md's 60 s.
    public static let fallbackDeadline: Double = 60
}

extension Kind {
    /// `descriptor.tier`.
    public var tier: Int { descriptor.tier }

    /// Every tier, in order.
    public static let tiers = 0...(allCases.map(\.tier).max() ?? 0)

    /// Kinds that decode pixels, and so are refused for images over the pixel limit.
    public var decodesPixels: Bool { descriptor.needs.contains(.pixels) }

    /// Kinds only a worker offering the coordinator's language may take.
    public var needsLanguage: Bool { descriptor.needs.contains(.language) }

    /// The kind in words ("OCR", "thumbnail").
    public var title: String { descriptor.title ?? rawValue }

    /// The default lease deadline of every kind.
    public static var defaultDeadlines: [Kind: Double] {
        Dictionary(uniqueKeysWithValues: allCases.map { ($0, $0.descriptor.deadline) })
    }

    /// A job's lease deadline: the longest of its kinds' `deadlines`, else 60 s. The
    /// coordinator leases by it, the worker EXTENDs by it.
    public static func jobDeadline(_ deadlines: some Sequence<Double>) -> Double {
        deadlines.max() ?? KindDescriptor.fallbackDeadline
    }
}
