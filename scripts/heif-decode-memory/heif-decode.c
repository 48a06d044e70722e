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

/* How much memory libheif itself needs to decode a HEIF's primary image, without libvips
 * or photomill: the floor under any thumbnail or OCR of that file (docs/benchmarks.md).
 *
 *   gcc -O2 heif-decode.c -o heif-decode $(pkg-config --cflags --libs libheif)
 *   /usr/bin/time -v ./heif-decode FILE 0   # to interleaved RGB, as libvips asks
 *   /usr/bin/time -v ./heif-decode FILE 1   # to planar YCbCr 4:2:0, no colour conversion
 */
#include <libheif/heif.h>
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv) {
  FILE *f = fopen(argv[1], "rb"); fseek(f, 0, SEEK_END); long n = ftell(f); fseek(f, 0, SEEK_SET);
  void *buf = malloc(n); fread(buf, 1, n, f); fclose(f);
  struct heif_context *ctx = heif_context_alloc();
  struct heif_error e = heif_context_read_from_memory_without_copy(ctx, buf, n, NULL);
  if (e.code) { printf("read: %s\n", e.message); return 1; }
  struct heif_image_handle *h; heif_context_get_primary_image_handle(ctx, &h);
  struct heif_decoding_options *o = heif_decoding_options_alloc();
  o->ignore_transformations = 1;
  struct heif_image *img;
  int mode = atoi(argv[2]);
  e = mode ? heif_decode_image(h, &img, heif_colorspace_YCbCr, heif_chroma_420, o)
           : heif_decode_image(h, &img, heif_colorspace_RGB, heif_chroma_interleaved_RGB, o);
  if (e.code) { printf("decode: %s\n", e.message); return 1; }
  printf("%dx%d\n", heif_image_get_width(img, heif_channel_Y), heif_image_get_height(img, heif_channel_Y));
  return 0;
}
