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

#ifndef CHAMMING_H
#define CHAMMING_H

#include <stddef.h>
#include <stdint.h>

/// The offsets i < count, in order, at which hashes[i] is within distance bits of hash
/// (the population count of their XOR), written to found (room for count); returns how
/// many. HashIndex's inner loop: with the CPU's POPCNT instruction where it has one, which
/// Swift's nonzeroBitCount, compiled for any x86-64, never uses.
size_t pm_hamming_near(uint64_t hash, const uint64_t *hashes, size_t count, unsigned distance, uint32_t *found);

#endif
