#ifndef LIFESPEC_CLIBPNG_SHIM_H
#define LIFESPEC_CLIBPNG_SHIM_H
#include <png.h>
#include <zlib.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

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

/// How an image is written: as RGB when it is opaque (every diagram on a filled background), else
/// as straight-alpha RGBA, and its size. Cairo rounds the page up to whole pixels, so the
/// background leaves its last column and row half covered: when those are the only translucent
/// pixels they are cropped off and the image is still RGB.
typedef struct {
    uint32_t width, height;
    /// Pixels a row of the source (the uncropped width).
    size_t stride;
    int opaque;
} lifespec_png_plan;

static inline lifespec_png_plan lifespec_png_plan_for(const uint32_t *pixels, uint32_t width, uint32_t height) {
    lifespec_png_plan plan = { width, height, width, 0 };
    if (width > 1 && height > 1 && lifespec_png_opaque(pixels, width, width - 1, height - 1)) {
        plan.width = lifespec_png_opaque(pixels + width - 1, width, 1, height - 1) ? width : width - 1;
        plan.height = lifespec_png_opaque(pixels + (size_t)(height - 1) * width, width, plan.width, 1) ? height : height - 1;
        plan.opaque = 1;
    } else {
        plan.opaque = lifespec_png_opaque(pixels, width, width, height);
    }
    return plan;
}

/// Bytes of one row in the image data PNG deflates: the filter byte, then the pixels.
static inline size_t lifespec_png_row_bytes(lifespec_png_plan plan) {
    return 1 + (size_t)plan.width * (plan.opaque ? 3 : 4);
}

/// The image data is deflated in stripes of rows, each on its own (any thread may take one), as
/// pigz does: each stripe is a raw deflate stream primed with the 32 KB of image data before it
/// (so it still finds matches across the cut) that ends on a byte boundary, and the stripes laid
/// end to end are one zlib stream. A stripe is about 1 MB of image data: the 500-state benchmark's
/// bitmap is 36 stripes. The cut depends only on the image's size, so the bytes are the same on
/// every run and however many threads take part.
#define LIFESPEC_PNG_STRIPE_BYTES 1048576

static inline uint32_t lifespec_png_stripe_rows(lifespec_png_plan plan) {
    size_t rows = (size_t)LIFESPEC_PNG_STRIPE_BYTES / lifespec_png_row_bytes(plan);
    return rows == 0 ? 1 : (rows > plan.height ? plan.height : (uint32_t)rows);
}

static inline uint32_t lifespec_png_stripe_count(lifespec_png_plan plan) {
    uint32_t rows = lifespec_png_stripe_rows(plan);
    return (plan.height + rows - 1) / rows;
}

/// Row `y` of the image data as PNG stores it: filter byte 0 (none), then RGB, or RGBA with the
/// alpha un-premultiplied (cairo premultiplies; PNG stores straight alpha).
static inline void lifespec_png_image_row(const uint32_t *pixels, lifespec_png_plan plan, uint32_t y, unsigned char *target) {
    const uint32_t *source = pixels + (size_t)y * plan.stride;
    *target++ = 0;
    if (plan.opaque) {
        lifespec_png_opaque_row(source, target, plan.width);
        return;
    }
    for (uint32_t x = 0; x < plan.width; x++) {
        uint32_t pixel = source[x];
        uint32_t alpha = pixel >> 24, red = (pixel >> 16) & 0xFF, green = (pixel >> 8) & 0xFF, blue = pixel & 0xFF;
        if (alpha != 0xFF) {
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
        *target++ = (unsigned char)alpha;
    }
}

/// One stripe deflated: its compressed bytes (malloc'd), and the Adler-32 and length of the image
/// data it holds (the zlib stream's checksum is combined from them).
typedef struct {
    unsigned char *data;
    size_t length;
    uLong adler;
    size_t raw_length;
} lifespec_png_stripe;

/// zlib level 2 (its fast matcher): the 500-state benchmark's 14,041 × 854 image deflated in 0.39 s
/// instead of 1.12 s at level 6 (same pixels, 2.44 MB instead of 2.23 MB), the flagship's in
/// 0.07 s instead of 0.22 s; no filter is about three times faster than libpng's adaptive
/// filtering on diagrams (flat colour, anti-aliased text), and the file is smaller.
#define LIFESPEC_PNG_LEVEL 2

/// Deflates stripe `index` of the image data. Returns 0 on success; free `stripe->data`.
static inline int lifespec_png_deflate_stripe(const uint32_t *pixels, lifespec_png_plan plan, uint32_t index,
                                              lifespec_png_stripe *stripe) {
    stripe->data = NULL;
    stripe->length = 0;
    stripe->adler = adler32(0L, Z_NULL, 0);
    stripe->raw_length = 0;
    uint32_t rows = lifespec_png_stripe_rows(plan);
    uint32_t first = index * rows, count = plan.height - first < rows ? plan.height - first : rows;
    int last = first + count == plan.height;
    size_t row_bytes = lifespec_png_row_bytes(plan);
    z_stream stream;
    memset(&stream, 0, sizeof stream);
    if (deflateInit2(&stream, LIFESPEC_PNG_LEVEL, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) != Z_OK) return 1;
    /* Enough rows before the stripe to fill deflate's 32 KB window, rebuilt from their pixels. */
    uint32_t primer_rows = first == 0 ? 0 : (uint32_t)((32768 + row_bytes - 1) / row_bytes);
    if (primer_rows > first) primer_rows = first;
    size_t buffer_rows = primer_rows > 1 ? primer_rows : 1;
    unsigned char *row = (unsigned char *)malloc(row_bytes * buffer_rows);
    size_t capacity = deflateBound(&stream, (uLong)(row_bytes * count)) + 64;
    unsigned char *out = (unsigned char *)malloc(capacity);
    int failed = row == NULL || out == NULL;
    if (!failed && primer_rows > 0) {
        for (uint32_t y = 0; y < primer_rows; y++)
            lifespec_png_image_row(pixels, plan, first - primer_rows + y, row + (size_t)y * row_bytes);
        size_t primer = row_bytes * primer_rows;
        size_t window = primer < 32768 ? primer : 32768;
        failed = deflateSetDictionary(&stream, row + primer - window, (uInt)window) != Z_OK;
    }
    stream.next_out = out;
    stream.avail_out = (uInt)capacity;
    for (uint32_t y = 0; y < count && !failed; y++) {
        lifespec_png_image_row(pixels, plan, first + y, row);
        stripe->adler = adler32(stripe->adler, row, (uInt)row_bytes);
        stream.next_in = row;
        stream.avail_in = (uInt)row_bytes;
        int flush = y + 1 < count ? Z_NO_FLUSH : (last ? Z_FINISH : Z_SYNC_FLUSH);
        int status = deflate(&stream, flush);
        failed = stream.avail_in != 0 || (flush == Z_FINISH ? status != Z_STREAM_END : status != Z_OK);
    }
    stripe->length = capacity - stream.avail_out;
    deflateEnd(&stream);
    free(row);
    if (failed) {
        free(out);
        stripe->length = 0;
        return 1;
    }
    stripe->data = out;
    stripe->raw_length = row_bytes * count;
    return 0;
}

static inline void lifespec_png_put32(unsigned char *target, uint32_t value) {
    target[0] = (unsigned char)(value >> 24);
    target[1] = (unsigned char)(value >> 16);
    target[2] = (unsigned char)(value >> 8);
    target[3] = (unsigned char)value;
}

/// Appends a chunk: length, type, data, CRC of type and data.
static inline unsigned char *lifespec_png_chunk(unsigned char *target, const char *type, const unsigned char *head,
                                                size_t head_length, const unsigned char *data, size_t length,
                                                const unsigned char *tail, size_t tail_length) {
    lifespec_png_put32(target, (uint32_t)(head_length + length + tail_length));
    memcpy(target + 4, type, 4);
    unsigned char *body = target + 8;
    if (head_length) memcpy(body, head, head_length);
    if (length) memcpy(body + head_length, data, length);
    if (tail_length) memcpy(body + head_length + length, tail, tail_length);
    size_t total = head_length + length + tail_length;
    lifespec_png_put32(body + total, (uint32_t)crc32(crc32(0L, Z_NULL, 0), target + 4, (uInt)(4 + total)));
    return body + total + 4;
}

/// The PNG file: signature, header, one IDAT chunk per stripe (the zlib header in the first, the
/// checksum in the last), end. No time or text chunks, so the bytes depend only on the pixels
/// (and the zlib version). Returns 0 on success; free `*out`.
static inline int lifespec_png_assemble(lifespec_png_plan plan, const lifespec_png_stripe *stripes, uint32_t count,
                                        unsigned char **out, size_t *out_length) {
    *out = NULL;
    *out_length = 0;
    if (count == 0) return 1;
    size_t total = 8 + 25 + 12;
    for (uint32_t i = 0; i < count; i++) total += 12 + stripes[i].length;
    total += 2 + 4;
    unsigned char *file = (unsigned char *)malloc(total);
    if (file == NULL) return 1;
    static const unsigned char signature[8] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n' };
    memcpy(file, signature, 8);
    unsigned char header[13];
    lifespec_png_put32(header, plan.width);
    lifespec_png_put32(header + 4, plan.height);
    header[8] = 8;                       /* bits a channel */
    header[9] = plan.opaque ? 2 : 6;     /* RGB or RGBA */
    header[10] = header[11] = header[12] = 0; /* deflate, adaptive filtering, no interlace */
    unsigned char *cursor = lifespec_png_chunk(file + 8, "IHDR", header, 13, NULL, 0, NULL, 0);
    /* zlib's own header for a 32 KB window at a fast level (FLEVEL 1), as deflate writes it. */
    static const unsigned char zlib_header[2] = { 0x78, 0x5E };
    uLong adler = adler32(0L, Z_NULL, 0);
    for (uint32_t i = 0; i < count; i++) {
        adler = adler32_combine(adler, stripes[i].adler, (z_off_t)stripes[i].raw_length);
        unsigned char trailer[4];
        lifespec_png_put32(trailer, (uint32_t)adler);
        cursor = lifespec_png_chunk(cursor, "IDAT", i == 0 ? zlib_header : NULL, i == 0 ? 2 : 0, stripes[i].data,
                                    stripes[i].length, i + 1 == count ? trailer : NULL, i + 1 == count ? 4 : 0);
    }
    cursor = lifespec_png_chunk(cursor, "IEND", NULL, 0, NULL, 0, NULL, 0);
    *out = file;
    *out_length = (size_t)(cursor - file);
    return 0;
}

/// Encodes `width * height` native-endian premultiplied ARGB32 pixels (cairo's image format) as a
/// PNG in `*out` (free it with free()), every stripe on this thread. Returns 0 on success.
static inline int lifespec_png_encode_argb32(const uint32_t *pixels, uint32_t width, uint32_t height,
                                             unsigned char **out, size_t *out_length) {
    *out = NULL;
    *out_length = 0;
    if (width == 0 || height == 0 || pixels == NULL) return 1;
    lifespec_png_plan plan = lifespec_png_plan_for(pixels, width, height);
    uint32_t count = lifespec_png_stripe_count(plan);
    lifespec_png_stripe *stripes = (lifespec_png_stripe *)calloc(count, sizeof *stripes);
    if (stripes == NULL) return 1;
    int failed = 0;
    for (uint32_t i = 0; i < count && !failed; i++) failed = lifespec_png_deflate_stripe(pixels, plan, i, &stripes[i]);
    if (!failed) failed = lifespec_png_assemble(plan, stripes, count, out, out_length);
    for (uint32_t i = 0; i < count; i++) free(stripes[i].data);
    free(stripes);
    return failed;
}

#endif
