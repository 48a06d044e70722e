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

// The small commands: EXTEND, FAIL, ACK, HEARTBEAT, DISCONNECT.

extension Photomill_V1_Extend {
    func validate(_ check: FieldChecker) throws(ProtocolViolation) {
        try check.id(jobID, "job_id")
        try check.id(leaseToken, "lease_token")
        try check.kinds(kinds, "kinds")
        try check.range(extraMs, FieldBounds.extraMs, "extra_ms")
    }
}

extension Photomill_V1_Fail {
    func validate(_ check: FieldChecker) throws(ProtocolViolation) {
        try check.id(jobID, "job_id")
        try check.id(leaseToken, "lease_token")
        try check.slug(errorClass, "error_class", bytes: FieldBounds.errorClassBytes)
        try check.text(message, "message", bytes: FieldBounds.errorMessageBytes)
    }
}

extension Photomill_V1_Ack {
    func validate(_ check: FieldChecker) throws(ProtocolViolation) {
        try check.count(committed.count + discarded.count, FieldBounds.ackEntries, "committed+discarded")
        for (index, id) in committed.enumerated() { try check.id(id, "committed[\(index)]") }
        for (index, id) in discarded.enumerated() { try check.id(id, "discarded[\(index)]") }
        // One job, one verdict.
        try check.unique(committed + discarded, "committed+discarded")
    }
}

extension Photomill_V1_Disconnect {
    func validate(_ check: FieldChecker) throws(ProtocolViolation) {
        try check.text(reason, "reason", bytes: FieldBounds.disconnectReasonBytes)
    }
}
