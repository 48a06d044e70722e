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

#ifndef PHOTOMILL_CTESSERACT_SHIM_H
#define PHOTOMILL_CTESSERACT_SHIM_H
#include <tesseract/capi.h>
#endif
