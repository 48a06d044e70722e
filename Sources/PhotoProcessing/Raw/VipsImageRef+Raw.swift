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

import CVips

extension VipsImageRef {
    /// Computes the pixels now, into memory libvips owns. libvips reads lazily: an image
    /// loaded from a buffer reads that buffer when its pixels are asked for, so an image
    /// made from a preview in LibRaw's memory must be computed before the LibRaw handle
    /// is closed. Also where damaged JPEG data is noticed (`fail_on=error`).
    func inMemory() throws(VipsError) -> VipsImageRef {
        guard let copy = vips_image_copy_memory(pointer) else { throw VipsError(message: Vips.takeError()) }
        return VipsImageRef(copy)
    }
}
