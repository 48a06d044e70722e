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

extension Photomill_V1_Ready {
    func validate(_ check: FieldChecker) throws(ProtocolViolation) {
        try check.id(workerID, "worker_id")
        try check.printable(host, "host", bytes: FieldBounds.hostBytes, allowSpace: false)
        try check.printable(
            softwareVersion,
            "software_version",
            bytes: FieldBounds.softwareVersionBytes,
            allowSpace: false
        )
        // Any revision is well-formed, an unset one (0) too: whether the coordinator admits
        // it is "Versions"' question, answered `old-protocol` (PROTOCOL.md, READY).
        try check.range(slots, FieldBounds.slots, "slots")
        // Kinds from a newer revision are ignored, not refused (PROTOCOL.md, "Versioning").
        let kinds = try check.kinds(self.kinds, "kinds", allowingNewer: true)

        try check.count(ocrLanguages.count, FieldBounds.ocrLanguages, "ocr_languages")
        for (index, language) in ocrLanguages.enumerated() {
            try check.ocrLanguageName(language, "ocr_languages[\(index)]")
        }
        try check.unique(ocrLanguages, "ocr_languages")
        // The coordinator routes the kinds that need a language (OCR) by language; the two
        // fields must tell the same story.
        let needingLanguage = kinds.compactMap(Kind.init).filter(\.needsLanguage).sorted()
        if let kind = needingLanguage.first, ocrLanguages.isEmpty {
            throw check.violation("ocr_languages", "is empty though kinds has \(kind.rawValue)")
        }
        if needingLanguage.isEmpty && !ocrLanguages.isEmpty {
            throw check.violation("ocr_languages", "is set though kinds has no kind that needs a language")
        }

        try check.count(pathRoots.count, FieldBounds.pathRoots, "path_roots")
        for (index, root) in pathRoots.enumerated() { try check.path(root, "path_roots[\(index)]") }
        try check.unique(pathRoots, "path_roots")
        // Unset (proto3's 0) is the default interval.
        if heartbeatIntervalMs != 0 {
            try check.range(heartbeatIntervalMs, FieldBounds.heartbeatIntervalMs, "heartbeat_interval_ms")
        }
    }

    /// The interval both peers use on this connection: the READY's, or
    /// `MillWire.defaultHeartbeatIntervalMs` when it leaves the field unset.
    public var heartbeatInterval: Double {
        Double(heartbeatIntervalMs == 0 ? MillWire.defaultHeartbeatIntervalMs : heartbeatIntervalMs) / 1000
    }
}
