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

// A build for any x86-64 counts bits with a dozen shifts and masks; every x86-64 CPU since
// 2008 has an instruction for it. The loop is compiled twice, with and without it, and the
// CPU is asked once (CPUID) which to run. Elsewhere (arm64: its NEON count) the compiler's
// own builtin is the instruction already.

#include "CHamming.h"

#if defined(__x86_64__)
#include <cpuid.h>
#endif

// Branch-free: every offset is written, and kept when it is near.
#define PM_NEAR_LOOP                                                                  \
    size_t n = 0;                                                                     \
    for (size_t i = 0; i < count; i++) {                                              \
        found[n] = (uint32_t)i;                                                       \
        n += (unsigned)__builtin_popcountll(hash ^ hashes[i]) <= distance;            \
    }                                                                                 \
    return n;

static size_t near_portable(uint64_t hash, const uint64_t *hashes, size_t count, unsigned distance, uint32_t *found) {
    PM_NEAR_LOOP
}

#if defined(__x86_64__)
__attribute__((target("popcnt")))
static size_t near_popcnt(uint64_t hash, const uint64_t *hashes, size_t count, unsigned distance, uint32_t *found) {
    PM_NEAR_LOOP
}

static int has_popcnt(void) {
    // Threads that ask at once all compute the same answer; relaxed atomics make that legal.
    static int known = -1;
    int answer = __atomic_load_n(&known, __ATOMIC_RELAXED);
    if (answer < 0) {
        unsigned eax, ebx, ecx, edx;
        answer = __get_cpuid(1, &eax, &ebx, &ecx, &edx) && (ecx & bit_POPCNT) != 0;
        __atomic_store_n(&known, answer, __ATOMIC_RELAXED);
    }
    return answer;
}
#endif

size_t pm_hamming_near(uint64_t hash, const uint64_t *hashes, size_t count, unsigned distance, uint32_t *found) {
#if defined(__x86_64__)
    if (has_popcnt()) return near_popcnt(hash, hashes, count, distance, found);
#endif
    return near_portable(hash, hashes, count, distance, found);
}
