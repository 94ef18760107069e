#ifndef LIFESPEC_CCAIRO_SHIM_H
#define LIFESPEC_CCAIRO_SHIM_H

#include <cairo.h>
#include <stddef.h>
#include <stdint.h>

/// Bitmaps drawn in two halves. Graphviz's cairo renderer draws a diagram into a context whose
/// target is a recording surface: it only records the paths and glyphs, under the renderer's
/// lock. The recording is then replayed into pixels on another thread, while the lock goes on
/// drawing the other diagrams: stroking and filling is most of a bitmap's cost (about 1.0 of the
/// 1.2 G instructions of the 500-state benchmark's PNG; Benchmarks/RESULTS.md).

/// A context for Graphviz to draw into (see lifespec_set_bitmap_context in CGraphviz), or NULL.
static inline cairo_t *lifespec_recording_create(void) {
    cairo_surface_t *surface = cairo_recording_surface_create(CAIRO_CONTENT_COLOR_ALPHA, NULL);
    cairo_t *context = cairo_create(surface);
    cairo_surface_destroy(surface);
    if (cairo_status(context) != CAIRO_STATUS_SUCCESS) {
        cairo_destroy(context);
        return NULL;
    }
    return context;
}

static inline void lifespec_recording_destroy(cairo_t *context) { cairo_destroy(context); }

/// Replays what `context` recorded into a new `width` × `height` ARGB32 image (cairo's
/// premultiplied, native-endian words, as Graphviz's own image surface holds them). Returns the
/// image, whose pixels `*pixels` points at (`width` words a row), or NULL when cairo fails; free
/// it with lifespec_image_destroy.
static inline cairo_surface_t *lifespec_recording_replay(cairo_t *context, uint32_t width, uint32_t height,
                                                         const uint32_t **pixels) {
    *pixels = NULL;
    if (context == NULL || cairo_status(context) != CAIRO_STATUS_SUCCESS || width == 0 || height == 0) return NULL;
    cairo_surface_t *image = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, (int)width, (int)height);
    if (cairo_surface_status(image) != CAIRO_STATUS_SUCCESS
        || cairo_image_surface_get_stride(image) != (int)width * 4) {
        cairo_surface_destroy(image);
        return NULL;
    }
    cairo_t *painter = cairo_create(image);
    cairo_set_source_surface(painter, cairo_get_target(context), 0, 0);
    cairo_paint(painter);
    cairo_status_t status = cairo_status(painter);
    cairo_destroy(painter);
    cairo_surface_flush(image);
    if (status != CAIRO_STATUS_SUCCESS) {
        cairo_surface_destroy(image);
        return NULL;
    }
    *pixels = (const uint32_t *)cairo_image_surface_get_data(image);
    return image;
}

static inline void lifespec_image_destroy(cairo_surface_t *image) { cairo_surface_destroy(image); }

#endif
