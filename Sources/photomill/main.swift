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

import ArgumentParser
import PhotoProcessing
import PhotomillCore

// Every command: the soft open-file limit up to the hard one (DescriptorLimit says why).
DescriptorLimit.raiseToHard()

// Must come before anything loads tesseract's OpenMP runtime into use. Only the commands
// that run tesseract in this process pay for the restart (it doubles start-up time, which
// `status` and the other catalog commands would feel).
if let command = CommandLine.arguments.dropFirst().first, ["inspect", "worker"].contains(command) {
    OpenMP.restartSingleThreadedIfNeeded()
}
await Photomill.start()
