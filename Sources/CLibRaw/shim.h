#ifndef PHOTOMILL_CLIBRAW_SHIM_H
#define PHOTOMILL_CLIBRAW_SHIM_H
// LibRaw's C API, thread-safe build (libraw_r): each worker slot thread owns its own
// libraw_data_t.
#include <libraw/libraw.h>
#endif
