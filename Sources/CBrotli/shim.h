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

// Brotli's decoder (Debian libbrotli-dev), for the Brotli-compressed `brob` boxes of JPEG XL
// files that exiv2 0.27 cannot open. No shims needed: the streaming API is plain C.
#include <brotli/decode.h>
