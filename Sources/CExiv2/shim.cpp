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

// The C interface of include/CExiv2.h over exiv2 0.27's C++ API. Every function catches
// every exception (exiv2 throws Exiv2::AnyError on bad data, std::bad_alloc on a huge
// claimed size): none may unwind into Swift.
#include "CExiv2.h"

#include <exiv2/exiv2.hpp>

#include <cmath>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>

struct pm_exiv2_metadata {
    Exiv2::ExifData exif;
    std::string xmpPacket;
    std::string mimeType;
    int64_t width = 0;
    int64_t height = 0;
};

namespace {

void silent(int, const char*) {}

// The XMP toolkit's own lock: XmpParser::initialize wants one for use from many threads
// (each worker slot reads on a thread of its own).
std::mutex xmpMutex;
void xmpLock(void*, bool lock) {
    if (lock) xmpMutex.lock(); else xmpMutex.unlock();
}

// Once per process: exiv2's warnings to stderr off (they would interleave with the
// worker's logs; the reason a file fails comes back through `error`), the XMP toolkit set
// up for threads, and ISO base media (HEIF, AVIF, CR3, JPEG XL) on, which 0.27 leaves off.
void setUp() {
    static std::once_flag once;
    std::call_once(once, [] {
        Exiv2::LogMsg::setHandler(silent);
        Exiv2::LogMsg::setLevel(Exiv2::LogMsg::mute);
        Exiv2::XmpParser::initialize(xmpLock, nullptr);
        Exiv2::enableBMFF(true);
    });
}

void report(const char* message, char* error, size_t size) {
    if (!error || size == 0) return;
    std::strncpy(error, message, size - 1);
    error[size - 1] = 0;
}

int64_t copyOut(const std::string& text, char* out, size_t size) {
    if (out && size > 0) {
        size_t n = text.size() < size - 1 ? text.size() : size - 1;
        std::memcpy(out, text.data(), n);
        out[n] = 0;
    }
    return int64_t(text.size());
}

const Exiv2::Exifdatum* find(const pm_exiv2_metadata* metadata, const char* key) {
    Exiv2::ExifData::const_iterator it = metadata->exif.findKey(Exiv2::ExifKey(key));
    return it == metadata->exif.end() ? nullptr : &*it;
}

// A reader's body, with setUp first and every exception caught and reported: nothing
// crosses into C (or Swift) as an exception.
template <typename Body>
pm_exiv2_metadata* guarded(char* error, size_t error_size, Body body) {
    try {
        setUp();
        return body();
    } catch (const std::exception& caught) {
        report(caught.what(), error, error_size);
    } catch (...) {
        report("exiv2 failed without a reason", error, error_size);
    }
    return nullptr;
}

}  // namespace

extern "C" {

pm_exiv2_metadata* pm_exiv2_read(const uint8_t* bytes, size_t count, char* error, size_t error_size) {
    return guarded(error, error_size, [&]() -> pm_exiv2_metadata* {
        if (!bytes || count == 0 || count > size_t(LONG_MAX)) {
            report("no bytes", error, error_size);
            return nullptr;
        }
        Exiv2::Image::AutoPtr image = Exiv2::ImageFactory::open(bytes, long(count));
        if (!image.get()) {
            report("exiv2 does not know this container", error, error_size);
            return nullptr;
        }
        image->readMetadata();
        std::unique_ptr<pm_exiv2_metadata> metadata(new pm_exiv2_metadata);
        metadata->exif = image->exifData();
        // The XMP as exiv2's XMP toolkit parsed it, written out again: well-formed UTF-8
        // whatever the file held (a damaged packet crashed Foundation's XML parser), and
        // nothing when the toolkit could not parse it.
        if (!image->xmpData().empty()) {
            std::string packet;
            if (Exiv2::XmpParser::encode(packet, image->xmpData(), Exiv2::XmpParser::omitPacketWrapper) == 0)
                metadata->xmpPacket = packet;
        }
        metadata->mimeType = image->mimeType();
        metadata->width = image->pixelWidth();
        metadata->height = image->pixelHeight();
        return metadata.release();
    });
}

pm_exiv2_metadata* pm_exiv2_read_exif(const uint8_t* bytes, size_t count, char* error, size_t error_size) {
    return guarded(error, error_size, [&]() -> pm_exiv2_metadata* {
        if (bytes && count >= 6 && std::memcmp(bytes, "Exif\0\0", 6) == 0) {
            bytes += 6;
            count -= 6;
        }
        if (!bytes || count < 8 || count > size_t(UINT32_MAX)) {
            report("no EXIF block", error, error_size);
            return nullptr;
        }
        std::unique_ptr<pm_exiv2_metadata> metadata(new pm_exiv2_metadata);
        Exiv2::ExifParser::decode(metadata->exif, bytes, uint32_t(count));
        if (metadata->exif.empty()) {
            report("the EXIF block holds no entry exiv2 can read", error, error_size);
            return nullptr;
        }
        return metadata.release();
    });
}

pm_exiv2_metadata* pm_exiv2_read_xmp(const uint8_t* bytes, size_t count, char* error, size_t error_size) {
    return guarded(error, error_size, [&]() -> pm_exiv2_metadata* {
        Exiv2::XmpData xmp;
        if (!bytes || Exiv2::XmpParser::decode(xmp, std::string(reinterpret_cast<const char*>(bytes), count)) != 0 || xmp.empty()) {
            report("the XMP packet cannot be parsed", error, error_size);
            return nullptr;
        }
        std::unique_ptr<pm_exiv2_metadata> metadata(new pm_exiv2_metadata);
        if (Exiv2::XmpParser::encode(metadata->xmpPacket, xmp, Exiv2::XmpParser::omitPacketWrapper) != 0) {
            report("the XMP packet cannot be written again", error, error_size);
            return nullptr;
        }
        return metadata.release();
    });
}

void pm_exiv2_free(pm_exiv2_metadata* metadata) {
    delete metadata;
}

void pm_exiv2_pixel_size(const pm_exiv2_metadata* metadata, int64_t* width, int64_t* height) {
    *width = metadata->width;
    *height = metadata->height;
}

int64_t pm_exiv2_exif_count(const pm_exiv2_metadata* metadata) {
    return int64_t(metadata->exif.count());
}

const char* pm_exiv2_mime_type(const pm_exiv2_metadata* metadata) {
    return metadata->mimeType.c_str();
}

int64_t pm_exiv2_exif_text(const pm_exiv2_metadata* metadata, const char* key, char* out, size_t size) {
    try {
        const Exiv2::Exifdatum* datum = find(metadata, key);
        if (!datum || datum->count() == 0) return -1;
        Exiv2::TypeId type = datum->typeId();
        if (type != Exiv2::asciiString && type != Exiv2::undefined) return -1;
        std::string raw(size_t(datum->size()), '\0');
        long copied = datum->copy(reinterpret_cast<Exiv2::byte*>(&raw[0]), Exiv2::littleEndian);
        if (copied < 0) return -1;
        raw.resize(size_t(copied));
        size_t nul = raw.find('\0');
        if (nul != std::string::npos) raw.resize(nul);
        return copyOut(raw, out, size);
    } catch (...) {
        return -1;
    }
}

int64_t pm_exiv2_exif_bytes(const pm_exiv2_metadata* metadata, const char* key, uint8_t* out, size_t size) {
    try {
        const Exiv2::Exifdatum* datum = find(metadata, key);
        if (!datum) return -1;
        Exiv2::DataBuf buffer(datum->size());
        long copied = datum->copy(buffer.pData_, Exiv2::littleEndian);
        if (copied < 0) return -1;
        if (out) std::memcpy(out, buffer.pData_, size_t(copied) < size ? size_t(copied) : size);
        return int64_t(copied);
    } catch (...) {
        return -1;
    }
}

int64_t pm_exiv2_exif_numbers(const pm_exiv2_metadata* metadata, const char* key, double* out, int64_t max) {
    try {
        const Exiv2::Exifdatum* datum = find(metadata, key);
        if (!datum) return -1;
        const Exiv2::Value& value = datum->value();
        long count = value.count();
        if (count <= 0) return -1;
        for (long index = 0; index < count; index++) {
            double number;
            switch (value.typeId()) {
            case Exiv2::unsignedByte: case Exiv2::unsignedShort: case Exiv2::unsignedLong:
            case Exiv2::signedByte: case Exiv2::signedShort: case Exiv2::signedLong:
                number = double(value.toLong(index));
                break;
            case Exiv2::unsignedRational: case Exiv2::signedRational: {
                Exiv2::Rational rational = value.toRational(index);
                if (rational.second == 0) return -1;
                number = double(rational.first) / double(rational.second);
                if (value.typeId() == Exiv2::unsignedRational)
                    number = double(uint32_t(rational.first)) / double(uint32_t(rational.second));
                break;
            }
            case Exiv2::tiffFloat: case Exiv2::tiffDouble:
                number = double(value.toFloat(index));
                break;
            default:
                return -1;
            }
            if (index < max) out[index] = number;
        }
        return int64_t(count);
    } catch (...) {
        return -1;
    }
}

int64_t pm_exiv2_exif_interpreted(const pm_exiv2_metadata* metadata, const char* key, char* out, size_t size) {
    try {
        const Exiv2::Exifdatum* datum = find(metadata, key);
        if (!datum) return -1;
        return copyOut(datum->print(&metadata->exif), out, size);
    } catch (...) {
        return -1;
    }
}

int64_t pm_exiv2_easy_key(const pm_exiv2_metadata* metadata, pm_exiv2_easy which, char* out, size_t size) {
    try {
        const Exiv2::ExifData& exif = metadata->exif;
        Exiv2::ExifData::const_iterator found = exif.end();
        switch (which) {
        case PM_EXIV2_ISO_SPEED: found = Exiv2::isoSpeed(exif); break;
        case PM_EXIV2_DATE_TIME_ORIGINAL: found = Exiv2::dateTimeOriginal(exif); break;
        case PM_EXIV2_EXPOSURE_TIME: found = Exiv2::exposureTime(exif); break;
        case PM_EXIV2_F_NUMBER: found = Exiv2::fNumber(exif); break;
        case PM_EXIV2_FOCAL_LENGTH: found = Exiv2::focalLength(exif); break;
        case PM_EXIV2_LENS_NAME: found = Exiv2::lensName(exif); break;
        case PM_EXIV2_ORIENTATION: found = Exiv2::orientation(exif); break;
        case PM_EXIV2_MAKE: found = Exiv2::make(exif); break;
        case PM_EXIV2_MODEL: found = Exiv2::model(exif); break;
        }
        if (found == exif.end()) return -1;
        return copyOut(found->key(), out, size);
    } catch (...) {
        return -1;
    }
}

const char* pm_exiv2_xmp_packet(const pm_exiv2_metadata* metadata, size_t* length) {
    *length = metadata->xmpPacket.size();
    return metadata->xmpPacket.empty() ? nullptr : metadata->xmpPacket.data();
}

const char* pm_exiv2_version(void) {
    static const std::string version = Exiv2::versionString();
    return version.c_str();
}

}  // extern "C"
