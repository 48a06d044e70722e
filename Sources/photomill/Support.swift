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

/// A line on stdout for people, escaped as all such text is (`PathBytes.display`).
func say(_ line: String) {
    print(PathBytes.display(line))
}

/// A message on stderr, escaped as all text for people is (`PathBytes.display`): one line.
func printError(_ message: String) {
    FileHandle.standardError.write(Data((PathBytes.display(message) + "\n").utf8))
}
