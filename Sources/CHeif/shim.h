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

#ifndef PHOTOMILL_CHEIF_SHIM_H
#define PHOTOMILL_CHEIF_SHIM_H
// libheif's C API, for decoding one tile of a HEIF grid at a time (`HEIFTileDecoder`):
// libvips reaches libheif only through whole images, and each load through it costs
// libvips' loader search and object set-up, as much again as the decode of a 512-pixel
// tile (measured: 391 tiles in 3.7 s of CPU through libvips, 2.0 s through libheif).
#include <libheif/heif.h>
#endif
