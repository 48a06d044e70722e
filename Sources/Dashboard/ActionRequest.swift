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

import Catalog
import Foundation
import PhotomillCore

/// The filters of an API call, as the CLI's flags name them (`kind`, `class`, `path`,
/// `dryRun`, `reason`), from a JSON body or a query string; checked as the CLI checks them.
struct ActionRequest: Decodable, Sendable {
    /// Comma-separated kinds, as `--kind` takes them; absent: every kind.
    var kind: String?
    var `class`: String?
    var path: String?
    var dryRun: Bool?
    var reason: String?

    init(kind: String? = nil, class errorClass: String? = nil, path: String? = nil) {
        self.kind = kind
        self.class = errorClass
        self.path = path
    }

    struct Invalid: Error {
        let message: String
    }

    /// The kinds named, or every kind.
    func kinds() throws(Invalid) -> Set<Kind> {
        guard let kind, !kind.isEmpty else { return Set(Kind.allCases) }
        switch Kind.parseList(kind) {
        case .success(let kinds): return kinds
        case .failure(let error): throw Invalid(message: "kind: \(error)")
        }
    }

    /// The task filter; an error class photomill never records and no failed task of the
    /// catalog has is refused, as `--class` is (a typo would match nothing, silently).
    func filter(failedClasses: () throws -> [ErrorClass: Int]) throws(Invalid) -> TaskFilter {
        var filter = TaskFilter(kinds: kind == nil ? [] : try kinds())
        if let name = self.class, !name.isEmpty {
            guard name.allSatisfy({ $0.isLowercase || $0.isNumber || $0 == "-" }) else {
                throw Invalid(message: "class must be an error class such as corrupt or worker-lost, not '\(name)'")
            }
            let errorClass = ErrorClass(rawValue: name)
            if case .other = errorClass {
                let present = (try? failedClasses()) ?? [:]
                guard present[errorClass] != nil else {
                    let listed = present.keys.map(\.rawValue).sorted().joined(separator: ", ")
                    throw Invalid(
                        message:
                            "class '\(name)' is not an error class of this catalog; failed tasks have: \(listed.isEmpty ? "none" : listed)"
                    )
                }
            }
            filter.errorClass = errorClass
        }
        if let path, !path.isEmpty {
            guard let first = path.first, "/*?[".contains(first) else {
                throw Invalid(
                    message: "path '\(path)' can never match: catalog paths are absolute, so start the glob with / or *"
                )
            }
            filter.pathGlob = path
        }
        return filter
    }
}
