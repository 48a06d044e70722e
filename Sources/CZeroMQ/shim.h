#ifndef PHOTOMILL_CZEROMQ_SHIM_H
#define PHOTOMILL_CZEROMQ_SHIM_H
#include <zmq.h>
#endif
