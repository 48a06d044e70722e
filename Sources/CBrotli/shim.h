// Brotli's decoder (Debian libbrotli-dev), for the Brotli-compressed `brob` boxes of JPEG XL
// files that exiv2 0.27 cannot open. No shims needed: the streaming API is plain C.
#include <brotli/decode.h>
