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

/// Job ids and lease tokens: this run's random id and a job counter, in hex — job
/// `1f3a9c0d.2b7`, token `1f3a9c0d-2b7`. Both unique across coordinator restarts (a new
/// run id each start; PROTOCOL.md: a worker may key its jobs by id, and an ACK names job
/// ids), without a call to the kernel's random source per job. Eight hex digits, so that
/// either of the first 16.7 million jobs fits Swift's 15-byte small string: no allocation,
/// and short to hash in the dictionaries every message goes through. Two runs draw the
/// same id with a chance of one in four billion.
///
/// The scheduler also asks it which tokens it could have issued: a RESULT, FAIL or EXTEND
/// under a token of an earlier run, or of this run's settled jobs, is what a conforming
/// worker re-sends after a restart or a lost ACK, never a violation; one under a token no
/// photomill coordinator issues, or one this run has not issued yet, is.
struct LeaseTokens {
    private let run: String
    private var counter = 0

    /// `run`: fixed by tests; eight random hex digits otherwise.
    init(run: String? = nil) {
        self.run =
            run
            ?? {
                let random = String(UInt32.random(in: .min ... .max), radix: 16)
                return String(repeating: "0", count: 8 - random.count) + random
            }()
    }

    mutating func next() -> (jobID: String, token: String) {
        counter += 1
        let count = String(counter, radix: 16)
        return (run + "." + count, run + "-" + count)
    }

    /// Whether some photomill coordinator run could have issued `token`: RUN-COUNTER, the
    /// counter in hex, and, for this run, no higher than the jobs granted so far.
    func couldHaveIssued(_ token: String) -> Bool {
        guard let dash = token.lastIndex(of: "-"), dash != token.startIndex,
            let count = Int(token[token.index(after: dash)...], radix: 16), count > 0
        else { return false }
        return token[..<dash] != run || count <= counter
    }
}
