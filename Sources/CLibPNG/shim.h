#ifndef LIFESPEC_CLIBPNG_SHIM_H
#define LIFESPEC_CLIBPNG_SHIM_H
#include <png.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    unsigned char *data;
    size_t length, capacity;
    int failed;
} lifespec_png_buffer;

static inline void lifespec_png_append(png_structp png, png_bytep bytes, png_size_t count) {
    lifespec_png_buffer *buffer = (lifespec_png_buffer *)png_get_io_ptr(png);
    if (buffer->failed) return;
    if (buffer->length + count > buffer->capacity) {
        size_t capacity = buffer->capacity ? buffer->capacity : 65536;
        while (capacity < buffer->length + count) capacity *= 2;
        unsigned char *data = (unsigned char *)realloc(buffer->data, capacity);
        if (data == NULL) { buffer->failed = 1; return; }
        buffer->data = data;
        buffer->capacity = capacity;
    }
    memcpy(buffer->data + buffer->length, bytes, count);
    buffer->length += count;
}

static inline void lifespec_png_flush(png_structp png) { (void)png; }

/// Whether every pixel in the `width` × `height` top-left corner of an image `stride` pixels wide
/// is opaque.
static inline int lifespec_png_opaque(const uint32_t *pixels, size_t stride, uint32_t width, uint32_t height) {
    for (uint32_t y = 0; y < height; y++) {
        const uint32_t *row = pixels + (size_t)y * stride;
        for (uint32_t x = 0; x < width; x++) {
            if ((row[x] >> 24) != 0xFF) return 0;
        }
    }
    return 1;
}

/// Encodes `width * height` native-endian premultiplied ARGB32 pixels (cairo's image format) as a
/// PNG in `*out` (free it with free()). An opaque image — every diagram on a filled background —
/// is written as RGB, else as straight-alpha RGBA. Cairo rounds the page up to whole pixels, so
/// the background leaves its last column and row half covered: when those are the only
/// translucent pixels they are cropped off and the image is still RGB. No filter and zlib level
/// 2: on diagrams (flat colour, anti-aliased text) no filter is about three times faster than
/// libpng's adaptive filtering at the same level, and the file is smaller; level 2 (zlib's fast
/// matcher) deflates the 500-state benchmark's 14,041 × 854 image in 0.39 s instead of 1.12 s at
/// level 6 (same pixels, 2.44 MB instead of 2.23 MB), the flagship's in 0.07 s instead of 0.22 s
/// (320 KB instead of 282 KB); levels 4 and up are the slow matcher. No time or text
/// chunks, so the bytes depend only on the pixels (and the zlib version). Returns 0 on success.
static inline int lifespec_png_encode_argb32(const uint32_t *pixels, uint32_t width, uint32_t height,
                                             unsigned char **out, size_t *out_length) {
    *out = NULL;
    *out_length = 0;
    if (width == 0 || height == 0 || pixels == NULL) return 1;
    const size_t stride = width;
    int opaque = 0;
    if (width > 1 && height > 1 && lifespec_png_opaque(pixels, stride, width - 1, height - 1)) {
        uint32_t croppedWidth = lifespec_png_opaque(pixels + width - 1, stride, 1, height - 1) ? width : width - 1;
        uint32_t croppedHeight = lifespec_png_opaque(pixels + (size_t)(height - 1) * stride, stride, croppedWidth, 1) ? height : height - 1;
        opaque = 1;
        width = croppedWidth;
        height = croppedHeight;
    } else {
        opaque = lifespec_png_opaque(pixels, stride, width, height);
    }
    size_t channels = opaque ? 3 : 4;
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    if (png == NULL) return 1;
    png_infop info = png_create_info_struct(png);
    /* volatile: read after a longjmp from libpng's error handler. */
    unsigned char *volatile row = (unsigned char *)malloc((size_t)width * channels);
    lifespec_png_buffer buffer = { NULL, 0, 0, 0 };
    if (info == NULL || row == NULL || setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, info ? &info : NULL);
        free(row);
        free(buffer.data);
        return 1;
    }
    png_set_write_fn(png, &buffer, lifespec_png_append, lifespec_png_flush);
    png_set_IHDR(png, info, width, height, 8, opaque ? PNG_COLOR_TYPE_RGB : PNG_COLOR_TYPE_RGB_ALPHA,
                 PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_set_filter(png, PNG_FILTER_TYPE_BASE, PNG_FILTER_NONE);
    png_set_compression_level(png, 2);
    png_write_info(png, info);
    for (uint32_t y = 0; y < height; y++) {
        const uint32_t *source = pixels + (size_t)y * stride;
        unsigned char *target = row;
        for (uint32_t x = 0; x < width; x++) {
            uint32_t pixel = source[x];
            uint32_t alpha = pixel >> 24, red = (pixel >> 16) & 0xFF, green = (pixel >> 8) & 0xFF, blue = pixel & 0xFF;
            if (!opaque && alpha != 0xFF) {
                /* cairo premultiplies; PNG stores straight alpha. */
                if (alpha == 0) {
                    red = green = blue = 0;
                } else {
                    red = (red * 255 + alpha / 2) / alpha;
                    green = (green * 255 + alpha / 2) / alpha;
                    blue = (blue * 255 + alpha / 2) / alpha;
                }
            }
            *target++ = (unsigned char)red;
            *target++ = (unsigned char)green;
            *target++ = (unsigned char)blue;
            if (!opaque) *target++ = (unsigned char)alpha;
        }
        png_write_row(png, row);
    }
    png_write_end(png, info);
    png_destroy_write_struct(&png, &info);
    free(row);
    if (buffer.failed) {
        free(buffer.data);
        return 1;
    }
    *out = buffer.data;
    *out_length = buffer.length;
    return 0;
}

#endif
