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

#ifndef PHOTOMILL_CLIBXML2_SHIM_H
#define PHOTOMILL_CLIBXML2_SHIM_H
// Debian's libxml2 is built with ICU, and its encoding.h then includes ICU's headers,
// whose enums clash with Foundation's own copy of ICU (_FoundationICU) in one Swift
// module. Only xmlCharEncodingHandler's last fields depend on it, and photomill never
// touches that struct: the reader converts encodings inside libxml2.
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/xmlreader.h>
#include <libxml/xmlerror.h>

/// The reader's options for XMP: no network, no DTD loaded, entities left as references
/// (never substituted: the reader reports them, and photomill refuses them), no output on
/// stderr (errors come to the structured handler), and no recovery: a packet that is not
/// well-formed, or not in its encoding, is an error, never half read. A function: the
/// xmlParserOption values OR-ed here, where they are plain ints.
static inline int pm_xml_reader_options(void) {
    return XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING | XML_PARSE_NOCDATA;
}

#endif
