#ifndef PHOTOMILL_CTESSERACT_SHIM_H
#define PHOTOMILL_CTESSERACT_SHIM_H
#include <tesseract/capi.h>
#endif
