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

// exiv2-probe: the fields photomill reads (see libexif-probe.c), read with exiv2 0.27
// (Exiv2::ImageFactory::open on the file's bytes in memory, readMetadata, ExifData keys),
// one JSON object per file. What it adds over the libexif path:
//   - every container exiv2 knows (JPEG, TIFF, CR2, NEF, DNG, RW2, ORF, RAF, PEF, SR2/ARW,
//     HEIF/AVIF/CR3 via BMFF, PNG, WebP, PSD, JP2, XMP sidecars, ...);
//   - ISO from maker notes when Exif.Photo.ISOSpeedRatings is missing (first usable of
//     ISO_KEYS below, interpreted value as exiv2 prints it, as exiftool does);
//   - XMP as a fallback for each field the Exif block lacks.
// Every exception is caught: a file that throws is {"status":"error"}, not a crash.
//
// Usage: exiv2-probe [--repeat N] [--mark] [--path] FILE...
//   --repeat N  load all files into memory, then read them N times; only reading + field
//               extraction is timed; {"timing":...} goes to stderr.
//   --mark      "@@FILE <path>" on stderr before each file (valgrind attribution).
//   --path      ImageFactory::open(path) (exiv2's own FileIo, mmap) instead of the bytes.
//   --parse-only  open + readMetadata only, no field extraction (speed breakdown).
#include <exiv2/exiv2.hpp>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <iterator>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace {

struct Result {
    std::string status = "no-exif", container = "none", error;
    std::map<std::string, std::string> fields;   // name -> JSON value text
    std::map<std::string, std::string> sources;  // name -> key it came from
    std::string easyIso;                         // Exiv2::isoSpeed() interpreted value, for reference
};

std::string jsonString(const std::string& s) {
    std::string o = "\"";
    const unsigned char* p = reinterpret_cast<const unsigned char*>(s.data());
    size_t n = s.size(), i = 0;
    while (i < n) {
        unsigned c = p[i];
        int len = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
        bool ok = len > 0 && i + len <= n;
        for (int k = 1; ok && k < len; k++) ok = (p[i + k] & 0xC0) == 0x80;
        if (!ok) { o += "\\ufffd"; i++; continue; }
        if (len > 1) { o.append(s, i, len); i += len; continue; }
        if (c == '"' || c == '\\') { o += '\\'; o += char(c); }
        else if (c < 0x20 || c == 0x7f) { char b[8]; snprintf(b, sizeof b, "\\u%04x", c); o += b; }
        else o += char(c);
        i++;
    }
    return o + "\"";
}

std::string num(double v) { char b[40]; snprintf(b, sizeof b, "%.10g", v); return b; }
bool positive(double v) { return std::isfinite(v) && v > 0; }
bool isTrim(unsigned char c) { return c <= 0x20 || c == 0x7f; }

std::string trimmed(const std::string& raw) {
    size_t n = raw.find('\0');
    if (n == std::string::npos) n = raw.size();
    size_t a = 0, b = n;
    while (a < b && isTrim(raw[a])) a++;
    while (b > a && isTrim(raw[b - 1])) b--;
    return raw.substr(a, b - a);
}

// ---- key tables: built once; a key name this exiv2 does not know is skipped, not fatal ----
std::map<std::string, std::unique_ptr<Exiv2::ExifKey>> exifKeys;
std::map<std::string, std::unique_ptr<Exiv2::XmpKey>> xmpKeys;

const Exiv2::ExifKey* ekey(const char* name) {
    auto it = exifKeys.find(name);
    if (it != exifKeys.end()) return it->second.get();
    std::unique_ptr<Exiv2::ExifKey> k;
    try { k.reset(new Exiv2::ExifKey(name)); } catch (...) { fprintf(stderr, "exiv2-probe: unknown key %s\n", name); }
    auto* p = k.get();
    exifKeys[name] = std::move(k);
    return p;
}
const Exiv2::XmpKey* xkey(const char* name) {
    auto it = xmpKeys.find(name);
    if (it != xmpKeys.end()) return it->second.get();
    std::unique_ptr<Exiv2::XmpKey> k;
    try { k.reset(new Exiv2::XmpKey(name)); } catch (...) { fprintf(stderr, "exiv2-probe: unknown key %s\n", name); }
    auto* p = k.get();
    xmpKeys[name] = std::move(k);
    return p;
}

const Exiv2::Exifdatum* find(const Exiv2::ExifData& ed, const char* name) {
    const Exiv2::ExifKey* k = ekey(name);
    if (!k) return nullptr;
    auto it = ed.findKey(*k);
    return it == ed.end() ? nullptr : &*it;
}
const Exiv2::Xmpdatum* findX(const Exiv2::XmpData& xd, const char* name) {
    const Exiv2::XmpKey* k = xkey(name);
    if (!k) return nullptr;
    auto it = xd.findKey(*k);
    return it == xd.end() ? nullptr : &*it;
}

// ASCII or UNDEFINED (as photomill accepts), up to the first NUL, trimmed.
bool exifString(const Exiv2::ExifData& ed, const char* name, std::string& out) {
    const Exiv2::Exifdatum* md = find(ed, name);
    if (!md || md->count() == 0) return false;
    Exiv2::TypeId t = md->typeId();
    if (t != Exiv2::asciiString && t != Exiv2::undefined) return false;
    std::vector<Exiv2::byte> buf(md->size() + 1);
    long n = md->copy(buf.data(), Exiv2::littleEndian);
    if (n < 0) return false;
    out = trimmed(std::string(reinterpret_cast<const char*>(buf.data()), size_t(n)));
    return !out.empty();
}

// Numeric components; a zero denominator voids the entry.
bool exifNumbers(const Exiv2::Exifdatum* md, std::vector<double>& out) {
    out.clear();
    if (!md) return false;
    const Exiv2::Value& v = md->value();
    long count = v.count();
    for (long i = 0; i < count; i++) {
        switch (v.typeId()) {
        case Exiv2::unsignedByte: case Exiv2::unsignedShort: case Exiv2::unsignedLong:
        case Exiv2::signedByte: case Exiv2::signedShort: case Exiv2::signedLong:
            out.push_back(double(v.toLong(i)));
            break;
        case Exiv2::unsignedRational: {
            const auto* r = dynamic_cast<const Exiv2::URationalValue*>(&v);
            if (!r || size_t(i) >= r->value_.size() || r->value_[i].second == 0) return false;
            out.push_back(double(r->value_[i].first) / r->value_[i].second);
            break;
        }
        case Exiv2::signedRational: {
            const auto* r = dynamic_cast<const Exiv2::RationalValue*>(&v);
            if (!r || size_t(i) >= r->value_.size() || r->value_[i].second == 0) return false;
            out.push_back(double(r->value_[i].first) / r->value_[i].second);
            break;
        }
        case Exiv2::tiffFloat: case Exiv2::tiffDouble:
            out.push_back(double(v.toFloat(i)));
            break;
        default:
            return false;
        }
    }
    return !out.empty();
}
bool exifNumber(const Exiv2::ExifData& ed, const char* name, double& out) {
    std::vector<double> v;
    if (!exifNumbers(find(ed, name), v)) return false;
    out = v[0];
    return true;
}

// ExifDate.iso8601(fromExif:) — digits only, ranges checked.
bool isoDate(const std::string& raw, std::string& out) {
    int d[14], n = 0;
    for (char c : raw) { if (c >= '0' && c <= '9') { d[n++] = c - '0'; if (n == 14) break; } }
    if (n < 14) return false;
    auto f = [&](int a, int b) { int v = 0; for (int i = a; i < b; i++) v = v * 10 + d[i]; return v; };
    int y = f(0, 4), mo = f(4, 6), dd = f(6, 8), h = f(8, 10), mi = f(10, 12), s = f(12, 14);
    if (y < 1800 || y > 2999 || mo < 1 || mo > 12 || dd < 1 || dd > 31 || h > 24 || mi > 59 || s > 60) return false;
    char b[48];
    snprintf(b, sizeof b, "%04d-%02d-%02dT%02d:%02d:%02d", y, mo, dd, h, mi, s);
    out = b;
    return true;
}
bool isoOffset(const std::string& raw, std::string& out) {
    std::string t = trimmed(raw);
    if (t == "Z") { out = "+00:00"; return true; }
    if (t.size() != 6 || (t[0] != '+' && t[0] != '-') || t[3] != ':') return false;
    for (int i : {1, 2, 4, 5}) if (t[i] < '0' || t[i] > '9') return false;
    int hh = (t[1] - '0') * 10 + t[2] - '0', mm = (t[4] - '0') * 10 + t[5] - '0';
    if (hh > 14 || mm > 59) return false;
    out = t;
    return true;
}

// Parses the whole of an interpreted value as a number ("400", "3.125"); "Auto", "(32767)" fail.
bool parseNumber(const std::string& text, double& out) {
    std::string t = trimmed(text);
    if (t.empty()) return false;
    char* end = nullptr;
    errno = 0;
    double v = strtod(t.c_str(), &end);
    if (errno || end == t.c_str() || *end != 0 || !std::isfinite(v)) return false;
    out = v;
    return true;
}

// ISO: the Exif tag first, then maker-note keys in the order of Exiv2::isoSpeed() (easyaccess.cpp,
// 0.27.6) plus Panasonic's; the first whose interpreted value is a number >= 1 wins.
const char* const ISO_KEYS[] = {
    "Exif.Photo.ISOSpeedRatings", "Exif.Image.ISOSpeedRatings",
    "Exif.CanonSi.ISOSpeed", "Exif.CanonCs.ISOSpeed",
    "Exif.Nikon1.ISOSpeed", "Exif.Nikon2.ISOSpeed", "Exif.Nikon3.ISOSpeed", "Exif.Nikon3.ISOSettings",
    "Exif.NikonIi.ISO", "Exif.NikonIi.ISO2",
    "Exif.MinoltaCsNew.ISOSetting", "Exif.MinoltaCsOld.ISOSetting", "Exif.MinoltaCs5D.ISOSpeed", "Exif.MinoltaCs7D.ISOSpeed",
    "Exif.Sony1Cs.ISOSetting", "Exif.Sony2Cs.ISOSetting", "Exif.Sony1Cs2.ISOSetting", "Exif.Sony2Cs2.ISOSetting",
    "Exif.Sony1MltCsA100.ISOSetting",
    "Exif.Pentax.ISO", "Exif.PentaxDng.ISO", "Exif.Olympus.ISOSpeed", "Exif.Samsung2.ISO",
    "Exif.Casio.ISO", "Exif.Casio2.ISO", "Exif.Casio2.ISOSpeed",
    "Exif.PanasonicRaw.ISOSpeed", "Exif.Panasonic.ProgramISO",
};

void setNum(Result& r, const char* field, double v, const std::string& src) {
    r.fields[field] = num(v);
    r.sources[field] = src;
}
void setStr(Result& r, const char* field, const std::string& v, const std::string& src) {
    r.fields[field] = jsonString(v);
    r.sources[field] = src;
}

bool xmpString(const Exiv2::XmpData& xd, const char* name, std::string& out) {
    const Exiv2::Xmpdatum* md = findX(xd, name);
    if (!md || md->count() == 0) return false;
    out = trimmed(md->toString());
    // lang-alt values print as 'lang="x-default" text'
    if (out.compare(0, 6, "lang=\"") == 0) { size_t q = out.find("\" "); if (q != std::string::npos) out = out.substr(q + 2); }
    return !out.empty();
}
bool xmpNumber(const Exiv2::XmpData& xd, const char* name, double& out) {
    const Exiv2::Xmpdatum* md = findX(xd, name);
    if (!md || md->count() == 0) return false;
    std::string text = trimmed(md->value().toString(0));
    size_t slash = text.find('/');
    if (slash != std::string::npos) {
        double a, b;
        if (!parseNumber(text.substr(0, slash), a) || !parseNumber(text.substr(slash + 1), b) || b == 0) return false;
        out = a / b;
        return true;
    }
    return parseNumber(text, out);
}
// XMP GPS: "DDD,MM.mmk" or "DDD,MM,SSk"
bool xmpCoordinate(const Exiv2::XmpData& xd, const char* name, char negative, double limit, double& out) {
    std::string t;
    if (!xmpString(xd, name, t) || t.size() < 2) return false;
    char ref = char(toupper(t.back()));
    t.pop_back();
    std::vector<double> parts;
    size_t start = 0;
    while (start <= t.size()) {
        size_t c = t.find(',', start);
        double v;
        if (!parseNumber(t.substr(start, c == std::string::npos ? std::string::npos : c - start), v) || v < 0) return false;
        parts.push_back(v);
        if (c == std::string::npos) break;
        start = c + 1;
    }
    if (parts.empty() || parts.size() > 3) return false;
    double deg = parts[0] + (parts.size() > 1 ? parts[1] / 60 : 0) + (parts.size() > 2 ? parts[2] / 3600 : 0);
    if (!(deg <= limit)) return false;
    out = ref == negative ? -deg : deg;
    return true;
}

bool coordinate(const Exiv2::ExifData& ed, const char* tag, const char* refTag, char negative, double limit, double& out) {
    std::vector<double> p;
    if (!exifNumbers(find(ed, tag), p)) return false;
    for (double v : p) if (!(v >= 0)) return false;
    double deg = p[0] + (p.size() > 1 ? p[1] / 60 : 0) + (p.size() > 2 ? p[2] / 3600 : 0);
    if (!(deg <= limit)) return false;
    std::string ref;
    bool neg = exifString(ed, refTag, ref) && ref.size() == 1 && toupper(ref[0]) == negative;
    out = neg ? -deg : deg;
    return true;
}

void fill(const Exiv2::ExifData& ed, const Exiv2::XmpData& xd, Result& r) {
    std::string s;
    double v;
    if (exifString(ed, "Exif.Image.Make", s)) setStr(r, "Make", s, "Exif.Image.Make");
    else if (xmpString(xd, "Xmp.tiff.Make", s)) setStr(r, "Make", s, "Xmp.tiff.Make");
    if (exifString(ed, "Exif.Image.Model", s)) setStr(r, "Model", s, "Exif.Image.Model");
    else if (xmpString(xd, "Xmp.tiff.Model", s)) setStr(r, "Model", s, "Xmp.tiff.Model");
    for (const char* k : {"Exif.Photo.LensModel", "Xmp.exifEX.LensModel", "Xmp.aux.Lens"}) {
        bool ok = k[0] == 'E' ? exifString(ed, k, s) : xmpString(xd, k, s);
        if (ok) { setStr(r, "LensModel", s, k); break; }
    }
    bool orient = exifNumber(ed, "Exif.Image.Orientation", v);
    const char* osrc = "Exif.Image.Orientation";
    if (!orient) { orient = xmpNumber(xd, "Xmp.tiff.Orientation", v); osrc = "Xmp.tiff.Orientation"; }
    if (orient && v == std::floor(v) && v >= 1 && v <= 8) setNum(r, "Orientation", v, osrc);

    static const char* const dates[][2] = {
        {"Exif.Photo.DateTimeOriginal", "Exif.Photo.OffsetTimeOriginal"},
        {"Exif.Photo.DateTimeDigitized", "Exif.Photo.OffsetTimeDigitized"},
        {"Exif.Image.DateTime", "Exif.Photo.OffsetTime"},
    };
    for (auto& d : dates) {
        std::string raw, iso, off, offRaw;
        if (!exifString(ed, d[0], raw) || !isoDate(raw, iso)) continue;
        if (exifString(ed, d[1], offRaw) && isoOffset(offRaw, off)) iso += off;
        setStr(r, "DateTimeOriginal", iso, d[0]);
        break;
    }
    if (!r.fields.count("DateTimeOriginal")) {
        for (const char* k : {"Xmp.exif.DateTimeOriginal", "Xmp.photoshop.DateCreated", "Xmp.xmp.CreateDate"}) {
            std::string raw, iso, off;
            if (!xmpString(xd, k, raw) || !isoDate(raw, iso)) continue;
            // XMP dates: YYYY-MM-DDThh:mm[:ss[.s]][TZD]
            size_t t = raw.find('T');
            if (t != std::string::npos) {
                size_t z = raw.find_first_of("+-Z", t);
                if (z != std::string::npos && isoOffset(raw.substr(z), off)) iso += off;
            }
            setStr(r, "DateTimeOriginal", iso, k);
            break;
        }
    }

    if (exifNumber(ed, "Exif.Photo.FNumber", v) && positive(v)) setNum(r, "FNumber", v, "Exif.Photo.FNumber");
    else if (exifNumber(ed, "Exif.Photo.ApertureValue", v) && positive(std::pow(2, v / 2))) setNum(r, "FNumber", std::pow(2, v / 2), "Exif.Photo.ApertureValue");
    else if (xmpNumber(xd, "Xmp.exif.FNumber", v) && positive(v)) setNum(r, "FNumber", v, "Xmp.exif.FNumber");
    if (exifNumber(ed, "Exif.Photo.ExposureTime", v) && positive(v)) setNum(r, "ExposureTime", v, "Exif.Photo.ExposureTime");
    else if (exifNumber(ed, "Exif.Photo.ShutterSpeedValue", v) && positive(std::pow(2, -v))) setNum(r, "ExposureTime", std::pow(2, -v), "Exif.Photo.ShutterSpeedValue");
    else if (xmpNumber(xd, "Xmp.exif.ExposureTime", v) && positive(v)) setNum(r, "ExposureTime", v, "Xmp.exif.ExposureTime");
    if (exifNumber(ed, "Exif.Photo.FocalLength", v) && positive(v)) setNum(r, "FocalLength", v, "Exif.Photo.FocalLength");
    else if (xmpNumber(xd, "Xmp.exif.FocalLength", v) && positive(v)) setNum(r, "FocalLength", v, "Xmp.exif.FocalLength");

    for (const char* k : ISO_KEYS) {
        const Exiv2::Exifdatum* md = find(ed, k);
        if (!md || md->count() == 0) continue;
        double iso;
        if (parseNumber(md->print(&ed), iso) && iso >= 1 && iso < 1e7) { setNum(r, "ISO", std::floor(iso), k); break; }
    }
    if (!r.fields.count("ISO") && xmpNumber(xd, "Xmp.exif.ISOSpeedRatings", v) && v >= 1 && v < 1e7)
        setNum(r, "ISO", std::floor(v), "Xmp.exif.ISOSpeedRatings");
    auto easy = Exiv2::isoSpeed(ed);
    if (easy != ed.end()) r.easyIso = easy->key() + "=" + easy->print(&ed);

    double lat, lon;
    if (coordinate(ed, "Exif.GPSInfo.GPSLatitude", "Exif.GPSInfo.GPSLatitudeRef", 'S', 90, lat) &&
        coordinate(ed, "Exif.GPSInfo.GPSLongitude", "Exif.GPSInfo.GPSLongitudeRef", 'W', 180, lon)) {
        setNum(r, "GPSLatitude", lat, "Exif.GPSInfo.GPSLatitude");
        setNum(r, "GPSLongitude", lon, "Exif.GPSInfo.GPSLongitude");
    } else if (xmpCoordinate(xd, "Xmp.exif.GPSLatitude", 'S', 90, lat) && xmpCoordinate(xd, "Xmp.exif.GPSLongitude", 'W', 180, lon)) {
        setNum(r, "GPSLatitude", lat, "Xmp.exif.GPSLatitude");
        setNum(r, "GPSLongitude", lon, "Xmp.exif.GPSLongitude");
    }
}

bool parseOnly = false;  // --parse-only: open + readMetadata, no field extraction

// The whole read: open, readMetadata, extract. This is the part a C shim for Swift would wrap.
void probe(const Exiv2::byte* data, long size, const char* path, Result& r) {
    r = Result();
    try {
        Exiv2::Image::AutoPtr image = path ? Exiv2::ImageFactory::open(path) : Exiv2::ImageFactory::open(data, size);
        if (!image.get()) { r.status = "error"; r.error = "open returned null"; return; }
        image->readMetadata();
        // after readMetadata: BmffImage::mimeType() reads an uninitialised member before it
        // (valgrind: "Conditional jump ... depends on uninitialised value" in 0.27.6)
        r.container = image->mimeType();
        const Exiv2::ExifData& ed = image->exifData();
        const Exiv2::XmpData& xd = image->xmpData();
        if (ed.empty() && xd.empty()) { r.status = "no-exif"; return; }
        r.status = "ok";
        if (!parseOnly) fill(ed, xd, r);
    } catch (const Exiv2::AnyError& e) {
        r.status = "error";
        r.error = std::string("Exiv2::Error ") + std::to_string(e.code()) + ": " + e.what();
        r.fields.clear(); r.sources.clear();
    } catch (const std::exception& e) {
        r.status = "error";
        r.error = std::string("std::exception: ") + e.what();
        r.fields.clear(); r.sources.clear();
    } catch (...) {
        r.status = "error";
        r.error = "unknown exception";
        r.fields.clear(); r.sources.clear();
    }
}

void print(const char* path, const Result& r) {
    std::string o = "{\"file\":" + jsonString(path) + ",\"library\":\"exiv2\",\"status\":\"" + r.status +
                    "\",\"container\":" + jsonString(r.container);
    if (!r.error.empty()) o += ",\"error\":" + jsonString(r.error);
    static const char* const order[] = {"DateTimeOriginal", "Make", "Model", "LensModel", "Orientation", "GPSLatitude",
                                        "GPSLongitude", "FNumber", "ExposureTime", "ISO", "FocalLength"};
    o += ",\"fields\":{";
    bool first = true;
    for (const char* k : order) {
        auto it = r.fields.find(k);
        if (it == r.fields.end()) continue;
        if (!first) o += ",";
        first = false;
        o += jsonString(k) + ":" + it->second;
    }
    o += "},\"sources\":{";
    first = true;
    for (auto& kv : r.sources) {
        if (!first) o += ",";
        first = false;
        o += jsonString(kv.first) + ":" + jsonString(kv.second);
    }
    o += "}";
    if (!r.easyIso.empty()) o += ",\"easyaccess_isoSpeed\":" + jsonString(r.easyIso);
    o += "}\n";
    fwrite(o.data(), 1, o.size(), stdout);
}

bool slurp(const char* path, std::vector<Exiv2::byte>& out) {
    FILE* f = fopen(path, "rb");
    if (!f) return false;
    out.clear();
    Exiv2::byte buf[1 << 16];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0) out.insert(out.end(), buf, buf + n);
    fclose(f);
    return true;
}

double clockS(clockid_t id) {
    timespec t;
    clock_gettime(id, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}
double now() { return clockS(CLOCK_MONOTONIC); }
double cpuNow() { return clockS(CLOCK_PROCESS_CPUTIME_ID); }

}  // namespace

int main(int argc, char** argv) {
    long repeat = 0;
    bool mark = false, byPath = false;
    int first = 1;
    while (first < argc && strncmp(argv[first], "--", 2) == 0) {
        if (!strcmp(argv[first], "--repeat") && first + 1 < argc) { repeat = atol(argv[first + 1]); first += 2; }
        else if (!strcmp(argv[first], "--mark")) { mark = true; first++; }
        else if (!strcmp(argv[first], "--path")) { byPath = true; first++; }
        else if (!strcmp(argv[first], "--parse-only")) { parseOnly = true; first++; }
        else if (!strcmp(argv[first], "--")) { first++; break; }
        else { fprintf(stderr, "unknown option %s\n", argv[first]); return 2; }
    }
    Exiv2::LogMsg::setLevel(Exiv2::LogMsg::mute);
    Exiv2::XmpParser::initialize();
    Exiv2::enableBMFF(true);
    // Build the key tables once (an unknown name is reported here, then skipped).
    { Exiv2::ExifData none; Exiv2::XmpData noneX; Result warm; fill(none, noneX, warm); }

    int nfiles = argc - first;
    if (repeat <= 0) {
        std::vector<Exiv2::byte> bytes;
        for (int i = first; i < argc; i++) {
            Result r;
            if (mark) { fprintf(stderr, "@@FILE %s\n", argv[i]); fflush(stderr); }
            if (byPath) probe(nullptr, 0, argv[i], r);
            else if (!slurp(argv[i], bytes)) { r.status = "error"; r.error = "cannot read file"; }
            else probe(bytes.data(), long(bytes.size()), nullptr, r);
            print(argv[i], r);
            fflush(stdout);
            std::vector<Exiv2::byte>().swap(bytes);
        }
        Exiv2::XmpParser::terminate();
        return 0;
    }
    std::vector<std::vector<Exiv2::byte>> bufs(nfiles);
    std::vector<Result> results(nfiles);
    size_t total = 0;
    for (int i = 0; i < nfiles; i++) { slurp(argv[first + i], bufs[i]); total += bufs[i].size(); }
    double t0 = now(), c0 = cpuNow();
    for (long k = 0; k < repeat; k++)
        for (int i = 0; i < nfiles; i++)
            probe(bufs[i].data(), long(bufs[i].size()), byPath ? argv[first + i] : nullptr, results[i]);
    double t = now() - t0, c = cpuNow() - c0;
    for (int i = 0; i < nfiles; i++) print(argv[first + i], results[i]);
    fprintf(stderr, "{\"timing\":{\"library\":\"exiv2\",\"files\":%d,\"repeat\":%ld,\"bytes\":%zu,\"seconds\":%.6f,\"files_per_second\":%.1f,\"cpu_seconds\":%.6f,\"files_per_cpu_second\":%.1f}}\n",
            nfiles, repeat, total, t, nfiles * double(repeat) / t, c, nfiles * double(repeat) / c);
    Exiv2::XmpParser::terminate();
    return 0;
}
