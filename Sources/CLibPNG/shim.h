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
/// is opaque. A row is checked whole (the AND of its pixels), without a branch per pixel.
static inline int lifespec_png_opaque(const uint32_t *pixels, size_t stride, uint32_t width, uint32_t height) {
    for (uint32_t y = 0; y < height; y++) {
        const uint32_t *row = pixels + (size_t)y * stride;
        uint32_t all = 0xFFFFFFFFu;
        for (uint32_t x = 0; x < width; x++) all &= row[x];
        if ((all >> 24) != 0xFF) return 0;
    }
    return 1;
}

/// An opaque row as RGB bytes, four pixels to three 32-bit words at a time: byte-swapped,
/// `0xAARRGGBB` is R, G, B in little-endian memory order. With the row-wide opacity check above,
/// the encoder's own instructions on `Spec/`'s 16 bitmaps (113 megapixels) fell from 3.5 G to
/// 1.6 G (callgrind; the Swift build does not vectorise this C, so a byte loop cost 24 a pixel).
static inline uint32_t lifespec_png_rgb(uint32_t pixel) { return __builtin_bswap32(pixel) >> 8; }

static inline void lifespec_png_opaque_row(const uint32_t *source, unsigned char *target, uint32_t width) {
    uint32_t x = 0;
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    for (; x + 4 <= width; x += 4, target += 12) {
        uint32_t a = lifespec_png_rgb(source[x]), b = lifespec_png_rgb(source[x + 1]);
        uint32_t c = lifespec_png_rgb(source[x + 2]), d = lifespec_png_rgb(source[x + 3]);
        uint32_t words[3] = { a | b << 24, b >> 8 | c << 16, c >> 16 | d << 8 };
        memcpy(target, words, sizeof words);
    }
#endif
    for (; x < width; x++) {
        uint32_t pixel = source[x];
        *target++ = (unsigned char)(pixel >> 16);
        *target++ = (unsigned char)(pixel >> 8);
        *target++ = (unsigned char)pixel;
    }
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
        if (opaque) {
            lifespec_png_opaque_row(source, row, width);
            png_write_row(png, row);
            continue;
        }
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
