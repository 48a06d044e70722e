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

extension MillMessage {
    /// Every field of the body, and the blob frames against the body. Size limits on the
    /// frames themselves are the codec's (they are checked before the body is decoded).
    func validateFields() throws(ProtocolViolation) {
        let check = FieldChecker(command: command)
        switch self {
        case .ready(let ready): try ready.validate(check)
        case .job(let job, let blobs): try job.validate(check, blobs: blobs)
        case .extend(let extend): try extend.validate(check)
        case .result(let result, let blobs): try result.validate(check, blobs: blobs)
        case .fail(let fail): try fail.validate(check)
        case .ack(let ack): try ack.validate(check)
        case .heartbeat: break
        case .disconnect(let disconnect): try disconnect.validate(check)
        case .jobs(let jobs): try jobs.validate(check)
        case .results(let results, let blobs): try results.validate(check, blobs: blobs)
        }
    }
}
