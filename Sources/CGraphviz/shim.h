#ifndef LIFESPEC_CGRAPHVIZ_SHIM_H
#define LIFESPEC_CGRAPHVIZ_SHIM_H
#include <graphviz/gvc.h>
#include <graphviz/cgraph.h>

/// Graphviz before 2.44: when `dot` adds a virtual node for a labelled flat edge, make_vn_slot()
/// reallocates the root graph's rank list `rank[r].v` but leaves `rank[r].av` pointing at the
/// old block, which dot_cleanup() (run by gvFreeLayout) then frees a second time: heap
/// corruption, and a crash a little later. The `dot` command never frees its layouts, so it does
/// not notice. In the root graph `av` and `v` are the same block once mincross has finished, so
/// pointing `av` back at the live block before gvFreeLayout is exact; on fixed versions the two
/// never differ and this does nothing. Call it only after a `dot` layout.
static inline void lifespec_gv_repair_dot_ranks(Agraph_t *graph) {
    Agraphinfo_t *info = (Agraphinfo_t *)aggetrec(graph, "Agraphinfo_t", 0);
    if (info == NULL || info->rank == NULL) return;
    for (int r = info->minrank; r <= info->maxrank; r++) {
        if (info->rank[r].v != info->rank[r].av) info->rank[r].av = info->rank[r].v;
    }
}

#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <limits.h>
#include <math.h>

/// Deterministic object IDs. cgraph's default ID discipline uses the address of each interned name
/// as its ID, and keeps subgraphs ordered by ID, so the order `dot` sees clusters in (and with it
/// the layout and the SVG) depends on where malloc happened to put the strings: in a process that
/// has rendered before, two runs on the same DOT text gave different SVG. These IDs number names
/// in the order they are first seen, so the same text always gives the same graph.
typedef struct {
    Agraph_t *graph;
    char **names;          /* interned names; names[i] has ID 2 * (i + 1) */
    size_t count, capacity;
    IDTYPE anonymous;      /* odd IDs for unnamed objects */
    /* Open addressing from an interned name's address to its index + 1 (0: empty). A search
       through `names` made parsing quadratic: 85 M instructions in the ten parses of the
       500-state benchmark's generate (callgrind). */
    size_t *slots;
    size_t slot_count;     /* a power of two, at least twice `count` */
} lifespec_id_state;

static inline size_t lifespec_id_slot(const lifespec_id_state *state, const char *name) {
    uint64_t hash = (uint64_t)(uintptr_t)name * 0x9E3779B97F4A7C15ULL;
    size_t slot = (size_t)(hash >> 32) & (state->slot_count - 1);
    while (state->slots[slot] != 0 && state->names[state->slots[slot] - 1] != name) {
        slot = (slot + 1) & (state->slot_count - 1);
    }
    return slot;
}

/* Doubles the table (or makes the first one); 0 when out of memory. */
static inline int lifespec_id_grow(lifespec_id_state *state) {
    size_t count = state->slot_count ? state->slot_count * 2 : 256;
    size_t *old = state->slots, old_count = state->slot_count;
    state->slots = (size_t *)calloc(count, sizeof(size_t));
    if (state->slots == NULL) {
        state->slots = old;
        return 0;
    }
    state->slot_count = count;
    for (size_t i = 0; i < old_count; i++) {
        if (old[i] != 0) state->slots[lifespec_id_slot(state, state->names[old[i] - 1])] = old[i];
    }
    free(old);
    return 1;
}

static inline void *lifespec_id_open(Agraph_t *graph, Agdisc_t *disc) {
    (void)disc;
    lifespec_id_state *state = (lifespec_id_state *)calloc(1, sizeof(lifespec_id_state));
    if (state == NULL) return NULL;
    state->graph = graph;
    state->anonymous = 1;
    return state;
}

static inline long lifespec_id_map(void *opaque, int objtype, char *name, IDTYPE *id, int createflag) {
    (void)objtype;
    lifespec_id_state *state = (lifespec_id_state *)opaque;
    if (name == NULL) {
        *id = state->anonymous;
        state->anonymous += 2;
        return 1;
    }
    char *interned = createflag ? agstrdup(state->graph, name) : agstrbind(state->graph, name);
    if (interned == NULL) { *id = 0; return 1; }
    if (state->slot_count == 0 && !lifespec_id_grow(state)) return 0;
    size_t slot = lifespec_id_slot(state, interned);
    if (state->slots[slot] != 0) { *id = (IDTYPE)(2 * state->slots[slot]); return 1; }
    if (!createflag) { *id = 0; return 1; }
    if (2 * (state->count + 1) > state->slot_count) {
        if (!lifespec_id_grow(state)) return 0;
        slot = lifespec_id_slot(state, interned);
    }
    if (state->count == state->capacity) {
        size_t capacity = state->capacity ? state->capacity * 2 : 64;
        char **names = (char **)realloc(state->names, capacity * sizeof(char *));
        if (names == NULL) return 0;
        state->names = names;
        state->capacity = capacity;
    }
    state->names[state->count++] = interned;
    state->slots[slot] = state->count;
    *id = (IDTYPE)(2 * state->count);
    return 1;
}

static inline long lifespec_id_alloc(void *state, int objtype, IDTYPE request) {
    (void)state; (void)objtype; (void)request;
    return 1;
}

static inline void lifespec_id_free(void *opaque, int objtype, IDTYPE id) {
    (void)objtype;
    lifespec_id_state *state = (lifespec_id_state *)opaque;
    if (id != 0 && id % 2 == 0 && (size_t)(id / 2) <= state->count) agstrfree(state->graph, state->names[id / 2 - 1]);
}

static inline char *lifespec_id_print(void *opaque, int objtype, IDTYPE id) {
    (void)objtype;
    lifespec_id_state *state = (lifespec_id_state *)opaque;
    if (id != 0 && id % 2 == 0 && (size_t)(id / 2) <= state->count) return state->names[id / 2 - 1];
    return NULL;
}

static inline void lifespec_id_close(void *opaque) {
    lifespec_id_state *state = (lifespec_id_state *)opaque;
    if (state == NULL) return;
    free(state->names);
    free(state->slots);
    free(state);
}

static inline void lifespec_id_register(void *state, int objtype, void *object) {
    (void)state; (void)objtype; (void)object;
}

typedef struct {
    const char *data;
    size_t length, offset;
} lifespec_text_reader;

/* Hands the parser one line at a time, as agmemread's own reader does. */
static inline int lifespec_text_read(void *channel, char *buffer, int size) {
    lifespec_text_reader *reader = (lifespec_text_reader *)channel;
    if (size <= 0 || reader->offset >= reader->length) return 0;
    int count = 0;
    char c;
    do {
        c = reader->data[reader->offset + count];
        buffer[count++] = c;
    } while (c != '\n' && count < size && reader->offset + count < reader->length);
    reader->offset += (size_t)count;
    return count;
}

/// agmemread with deterministic IDs (see above). Returns NULL on a syntax error.
static inline Agraph_t *lifespec_agmemread(const char *text) {
    static Agiddisc_t ids = {
        lifespec_id_open, lifespec_id_map, lifespec_id_alloc, lifespec_id_free,
        lifespec_id_print, lifespec_id_close, lifespec_id_register,
    };
    static Agiodisc_t io;
    static Agdisc_t disc;
    io.afread = lifespec_text_read;
    io.putstr = AgIoDisc.putstr;
    io.flush = AgIoDisc.flush;
    disc.mem = &AgMemDisc;
    disc.id = &ids;
    disc.io = &io;
    lifespec_text_reader reader = { text, strlen(text), 0 };
    return agread(&reader, &disc);
}

/// Graphviz 2.42/2.43's `dot` fails with "trouble in init_rank" on some clustered graphs that its
/// `newrank` ranking lays out fine; the renderer retries those with this set.
static inline void lifespec_set_newrank(Agraph_t *graph) {
    agattr(graph, AGRAPH, (char *)"newrank", (char *)"true");
}

#include <graphviz/gvplugin.h>
#include <graphviz/gvplugin_device.h>
#include <graphviz/gvcjob.h>

/* Exported by libgvc but declared only in a header Debian does not install (gvio.h). */
extern size_t gvwrite(GVJ_t *job, const char *s, size_t len);

/// Bitmaps: Graphviz's own `png:cairo` device encodes with libpng's slowest settings (every
/// filter tried on every row, RGBA even when the image is opaque) while holding the renderer's
/// lock. The `lifespec_argb:cairo` device instead hands back cairo's pixels — an 8-byte header
/// (width, height as native uint32) and then `width * height` native-endian premultiplied ARGB32
/// words — so the caller can encode them outside the lock (see CLibPNG).
static inline void lifespec_argb_format(GVJ_t *job) {
    uint32_t header[2] = { job->width, job->height };
    gvwrite(job, (const char *)header, sizeof header);
    /* cairo allocates no pixels for a surface nothing was drawn on: the header alone says so. */
    if (job->imagedata != NULL) gvwrite(job, job->imagedata, (size_t)job->width * job->height * 4);
}

/// A cairo context (`cairo_t *`) the next `lifespec_argb:cairo` render draws into instead of an
/// image surface of cairo's own, or NULL. Graphviz's cairo renderer then leaves it to its owner
/// (an "external context") and hands back no pixels: the header alone, with the size the pixels
/// would have. LifeSpec passes a recording surface's context (see CCairo). Only touched under the
/// renderer's lock.
static void *lifespec_bitmap_context = NULL;

static inline void lifespec_set_bitmap_context(void *context) { lifespec_bitmap_context = context; }

/* Called before the renderer's begin_job, which saves an external context's state (end_job
   restores it); begin_page then draws into it rather than creating an image surface. */
static inline void lifespec_argb_initialize(GVJ_t *job) {
    if (lifespec_bitmap_context == NULL) return;
    job->context = lifespec_bitmap_context;
    job->external_context = TRUE;
}

/// Adds LifeSpec's devices and text metrics to a context; call once, right after gvContext().
/// Returns whether the metrics are in use (see lifespec_add_text_metrics).
static inline int lifespec_add_devices(GVC_t *gvc);

#include <graphviz/gvplugin_textlayout.h>
#include <dlfcn.h>
#include "text_metrics.h"

/// Text measured with metrics LifeSpec carries, so a layout does not depend on the fonts installed.
///
/// Graphviz asks the text-layout plugin for the size of every piece of label text; the system's
/// plugin (pango) answers with whatever font fontconfig finds for the name, so the same DOT gave
/// other coordinates on a machine with other fonts. LifeSpec's plugin answers from embedded advance
/// widths (text_metrics.h, read from Liberation Sans, metric-compatible with Helvetica/Arial):
///   - any font name is measured as Helvetica (regular, bold, italic, bold italic from the HTML
///     `<B>`/`<I>` flags or the name), except monospace names (Courier, …): 0.6 em a character;
///   - a character the tables do not cover is 1 em when it is East Asian wide (CJK ideographs,
///     kana, Hangul, fullwidth forms, CJK punctuation), 0 for combining marks, otherwise 0.6 em;
///   - no kerning; a line is (ascender + descender + line gap) of Liberation Sans high.
/// Bitmaps still need glyphs: when `lifespec_text_wants_glyphs` is set, the system plugin also
/// lays the text out (its layout object is what cairo draws) and LifeSpec's sizes replace its.
typedef struct lifespec_plugin_available {
    /* The leading fields of Graphviz's gvplugin_available_t (gvcint.h, not installed), unchanged
       since Graphviz 2.30: enough to reach the loaded plugin's engine. */
    struct lifespec_plugin_available *next;
    const char *typestr;
    int quality;
    void *package;
    gvplugin_installed_t *typeptr;
} lifespec_plugin_available;

static gvtextlayout_engine_t *lifespec_system_textlayout = NULL;
static int lifespec_text_wants_glyphs = 0;
static int lifespec_text_metrics_active = 0;

/// Set before a layout whose text will be drawn as glyphs (PNG, PDF): the system plugin then
/// makes the layout objects cairo draws. Sizes never change with it.
static inline void lifespec_text_set_wants_glyphs(int wants) { lifespec_text_wants_glyphs = wants; }
static inline int lifespec_text_metrics_in_use(void) { return lifespec_text_metrics_active; }
static inline const char *lifespec_text_metrics_version(void) { return LIFESPEC_TEXT_METRICS_VERSION; }

static inline int lifespec_is_east_asian_wide(uint32_t c) {
    return (c >= 0x1100 && c <= 0x115F) || (c >= 0x2E80 && c <= 0x303E) || (c >= 0x3041 && c <= 0x33FF)
        || (c >= 0x3400 && c <= 0x4DBF) || (c >= 0x4E00 && c <= 0x9FFF) || (c >= 0xA000 && c <= 0xA4CF)
        || (c >= 0xAC00 && c <= 0xD7A3) || (c >= 0xF900 && c <= 0xFAFF) || (c >= 0xFE30 && c <= 0xFE4F)
        || (c >= 0xFF00 && c <= 0xFF60) || (c >= 0xFFE0 && c <= 0xFFE6) || (c >= 0x1F300 && c <= 0x1F64F)
        || (c >= 0x1F900 && c <= 0x1F9FF) || (c >= 0x20000 && c <= 0x3FFFD);
}

static inline int lifespec_is_combining(uint32_t c) {
    return (c >= 0x0300 && c <= 0x036F) || (c >= 0x1AB0 && c <= 0x1AFF) || (c >= 0x1DC0 && c <= 0x1DFF)
        || (c >= 0x20D0 && c <= 0x20FF) || (c >= 0xFE20 && c <= 0xFE2F) || c == 0x200B || c == 0x200C
        || c == 0x200D || c == 0xFE0F || c == 0xFE0E;
}

/// Decodes one UTF-8 character at `*p` and advances past it; a malformed byte counts as U+FFFD.
static inline uint32_t lifespec_utf8_next(const unsigned char **p) {
    const unsigned char *s = *p;
    uint32_t c = s[0];
    int extra = c < 0x80 ? 0 : (c >> 5) == 0x6 ? 1 : (c >> 4) == 0xE ? 2 : (c >> 3) == 0x1E ? 3 : -1;
    if (extra < 0) { *p = s + 1; return 0xFFFD; }
    if (extra == 0) { *p = s + 1; return c; }
    c &= 0x3F >> extra;
    for (int i = 1; i <= extra; i++) {
        if ((s[i] & 0xC0) != 0x80) { *p = s + i; return 0xFFFD; }
        c = (c << 6) | (s[i] & 0x3F);
    }
    *p = s + extra + 1;
    return c;
}

/// The advance of `c` in em units × units-per-em, for `face` (0 regular, 1 bold, 2 italic,
/// 3 bold italic) or monospace.
static inline double lifespec_advance(uint32_t c, int face, int mono) {
    if (lifespec_is_combining(c)) return 0;
    if (lifespec_is_east_asian_wide(c)) return LIFESPEC_SANS_UNITS_PER_EM;
    if (mono) return 0.6 * LIFESPEC_SANS_UNITS_PER_EM;
    /* Two stages (text_metrics.h): the face's block for the code point, then its place there. */
    const uint16_t *blocks = lifespec_sans_blocks[face];
    for (int r = 0; r < LIFESPEC_METRIC_RANGE_COUNT; r++) {
        if (c >= lifespec_metric_range_first[r] && c < lifespec_metric_range_end[r]) {
            uint32_t offset = c - lifespec_metric_range_first[r];
            uint16_t block = blocks[lifespec_metric_range_block[r] + offset / LIFESPEC_METRIC_BLOCK];
            uint16_t width = lifespec_metric_blocks[block][offset % LIFESPEC_METRIC_BLOCK];
            if (width != 0) return width;
            break;
        }
    }
    /* A tab is as wide as a space, the first code point of the first range. */
    if (c == '\t') return lifespec_metric_blocks[blocks[0]][0];
    return 0.6 * LIFESPEC_SANS_UNITS_PER_EM;
}

static inline int lifespec_contains_word(const char *text, const char *word) {
    if (text == NULL) return 0;
    size_t length = strlen(word);
    for (const char *p = text; *p; p++) {
        if (strncasecmp(p, word, length) == 0) return 1;
    }
    return 0;
}

static inline boolean lifespec_textlayout(textspan_t *span, char **fontpath) {
    textfont_t *font = span->font;
    const char *name = font->name ? font->name : "";
    PostscriptAlias *alias = font->postscript_alias;
    const char *family = alias && alias->family ? alias->family : name;
    int mono = lifespec_contains_word(family, "courier") || lifespec_contains_word(family, "mono")
        || lifespec_contains_word(name, "courier") || lifespec_contains_word(name, "mono");
    int bold = (font->flags & HTML_BF) || lifespec_contains_word(name, "bold")
        || (alias && alias->weight && lifespec_contains_word(alias->weight, "bold"));
    int italic = (font->flags & HTML_IF) || lifespec_contains_word(name, "italic") || lifespec_contains_word(name, "oblique")
        || (alias && alias->style && (lifespec_contains_word(alias->style, "italic") || lifespec_contains_word(alias->style, "oblique")));
    int face = (bold ? 1 : 0) + (italic ? 2 : 0);
    double units = 0;
    if (span->str) {
        const unsigned char *p = (const unsigned char *)span->str;
        while (*p) units += lifespec_advance(lifespec_utf8_next(&p), face, mono);
    }
    double size = font->size;
    span->layout = NULL;
    span->free_layout = NULL;
    span->yoffset_layout = size * LIFESPEC_SANS_ASCENDER / LIFESPEC_SANS_UNITS_PER_EM;
    if (lifespec_text_wants_glyphs && lifespec_system_textlayout && lifespec_system_textlayout->textlayout) {
        /* Its layout object (and the baseline cairo draws it at) serves the bitmap; its sizes are
           replaced. The glyphs come from the fonts the tables were read from, asked for by name:
           Graphviz's own PostScript mapping sends Helvetica to fontconfig's generic sans-serif
           (DejaVu Sans here), whose wider glyphs would overflow boxes sized for Helvetica.
           fontconfig still falls back per character (Noto CJK for Chinese). */
        char *name_before = font->name;
        PostscriptAlias *alias_before = font->postscript_alias;
        font->name = (char *)(mono ? "Liberation Mono" : "Liberation Sans");
        font->postscript_alias = NULL;
        lifespec_system_textlayout->textlayout(span, NULL);
        font->name = name_before;
        font->postscript_alias = alias_before;
    }
    span->size.x = units * size / LIFESPEC_SANS_UNITS_PER_EM;
    span->size.y = size * (LIFESPEC_SANS_ASCENDER + LIFESPEC_SANS_DESCENDER + LIFESPEC_SANS_LINE_GAP) / LIFESPEC_SANS_UNITS_PER_EM;
    span->yoffset_centerline = 0.1 * size;
    if (fontpath) *fontpath = (char *)"[lifespec metrics " LIFESPEC_TEXT_METRICS_VERSION "]";
    return TRUE;
}

/// Makes LifeSpec's metrics the context's text-layout plugin, keeping the system one for glyphs.
/// Graphviz exports the two functions this needs but declares them only in headers Debian does not
/// install; without them (another build of Graphviz) the system plugin stays and this returns 0.
static inline int lifespec_add_text_metrics(GVC_t *gvc, gvplugin_library_t *library) {
    typedef lifespec_plugin_available *(*load_fn)(GVC_t *, api_t, const char *);
    typedef int (*select_fn)(GVC_t *);
    load_fn load = (load_fn)dlsym(RTLD_DEFAULT, "gvplugin_load");
    select_fn select = (select_fn)dlsym(RTLD_DEFAULT, "gvtextlayout_select");
    if (load == NULL || select == NULL) {
        gvAddLibrary(gvc, library);
        return 0;
    }
    lifespec_plugin_available *system = load(gvc, API_textlayout, "textlayout");
    if (system != NULL && system->typeptr != NULL) lifespec_system_textlayout = (gvtextlayout_engine_t *)system->typeptr->engine;
    gvAddLibrary(gvc, library);
    select(gvc);
    lifespec_plugin_available *chosen = load(gvc, API_textlayout, "textlayout");
    lifespec_text_metrics_active = chosen != NULL && chosen->typeptr != NULL
        && chosen->typeptr->engine != NULL
        && ((gvtextlayout_engine_t *)chosen->typeptr->engine)->textlayout == lifespec_textlayout;
    return lifespec_text_metrics_active;
}

static inline int lifespec_add_devices(GVC_t *gvc) {
    static gvdevice_engine_t engine = { lifespec_argb_initialize, lifespec_argb_format, NULL };
    static gvdevice_features_t features = {
        GVDEVICE_BINARY_FORMAT | GVDEVICE_DOES_TRUECOLOR,
        {0., 0.}, {0., 0.}, {96., 96.},
    };
    static gvplugin_installed_t devices[] = {
        {0, "lifespec_argb:cairo", 0, &engine, &features},
        {0, NULL, 0, NULL, NULL},
    };
    static gvtextlayout_engine_t text = { lifespec_textlayout };
    /* Above pango's quality (10), so it is the one chosen. */
    static gvplugin_installed_t textlayouts[] = {
        {0, "textlayout", 100, &text, NULL},
        {0, NULL, 0, NULL, NULL},
    };
    static gvplugin_api_t apis[] = {
        {API_device, devices},
        {API_textlayout, textlayouts},
        {(api_t)0, NULL},
    };
    static gvplugin_library_t library = { (char *)"lifespec", apis };
    return lifespec_add_text_metrics(gvc, &library);
}

/// One layout, many drawings: a laid-out graph is drawn again with the styles of another graph
/// that has the same nodes, edges and clusters (a scenario is the overview with its path coloured).
/// Graphviz reads colours, pen widths and styles when it renders, so those are copied as
/// attributes; a label whose text or colour differs is rebuilt in place and must measure exactly
/// what the laid-out one does. The root graph's label (the legend) may differ in size: the drawing
/// grows downward (and to the right) to hold it, nothing else moves. Anything else that differs
/// would need a new layout: lifespec_restyle returns non-zero and changes nothing that matters,
/// and the caller lays the other graph out on its own.
/// make_label and free_label are exported by libgvc but declared only in headers Debian does not
/// install; they are looked up at run time, and without them every restyle asks for a layout.
typedef textlabel_t *(*lifespec_make_label_fn)(void *, char *, int, double, char *, char *);
typedef void (*lifespec_free_label_fn)(textlabel_t *);
#define LIFESPEC_LT_NONE 0
#define LIFESPEC_LT_HTML (1 << 1)

static inline int lifespec_label_functions(lifespec_make_label_fn *make, lifespec_free_label_fn *release) {
    static lifespec_make_label_fn cached_make = NULL;
    static lifespec_free_label_fn cached_free = NULL;
    static int looked = 0;
    if (!looked) {
        cached_make = (lifespec_make_label_fn)dlsym(RTLD_DEFAULT, "make_label");
        cached_free = (lifespec_free_label_fn)dlsym(RTLD_DEFAULT, "free_label");
        looked = 1;
    }
    *make = cached_make;
    *release = cached_free;
    return cached_make != NULL && cached_free != NULL;
}

/// The geometry a layout gave the graph, before any restyle changed its bounding box.
typedef struct {
    boxf bb;
    pointf label_pos, label_dimen;
    int has_label;
} lifespec_layout_geometry;

static inline void lifespec_capture_geometry(Agraph_t *graph, lifespec_layout_geometry *geometry) {
    memset(geometry, 0, sizeof *geometry);
    Agraphinfo_t *info = (Agraphinfo_t *)aggetrec(graph, "Agraphinfo_t", 0);
    if (info == NULL) return;
    geometry->bb = info->bb;
    if (info->label != NULL && info->label->set) {
        geometry->has_label = 1;
        geometry->label_pos = info->label->pos;
        geometry->label_dimen = info->label->dimen;
    }
}

static inline void lifespec_restore_geometry(Agraph_t *graph, const lifespec_layout_geometry *geometry) {
    Agraphinfo_t *info = (Agraphinfo_t *)aggetrec(graph, "Agraphinfo_t", 0);
    if (info != NULL) info->bb = geometry->bb;
}

static inline const char *lifespec_attribute(void *object, int kind, const char *name, const char *fallback) {
    Agsym_t *sym = agattr(agroot(object), kind, (char *)name, NULL);
    if (sym == NULL) return fallback;
    char *value = agxget(object, sym);
    return (value == NULL || *value == '\0') ? fallback : value;
}

static inline int lifespec_is_render_attribute(int kind, const char *name) {
    static const char *const common[] = { "color", "fillcolor", "penwidth", "style", "id", "class", "tooltip", "URL", "href", "target", NULL };
    for (int i = 0; common[i]; i++) if (strcmp(name, common[i]) == 0) return 1;
    if (kind == AGRAPH && strcmp(name, "bgcolor") == 0) return 1;
    return 0;
}

/// Every label built for the objects of one laid-out graph, kept while it is drawn again and again:
/// scenarios dim or colour the same labels the same way, so a label's variants are built (parsed
/// as HTML and measured) once and swapped in after that (Benchmarks/RESULTS.md, "generate of 500
/// states": the restyles were most of each scenario's time). Keyed by object and by everything
/// make_label reads: text, HTML or not, font size, name and colour. A variant built for a drawing
/// without glyphs (SVG) has no glyph layouts, which are most of a label's cost, and serves only
/// such drawings; one with glyphs serves any.
typedef struct lifespec_label_variant {
    void *object;
    textlabel_t **slot;
    char *text, *fontname, *fontcolor;
    double fontsize;
    int html;
    int glyphs;
    textlabel_t *label;
    struct lifespec_label_variant *next;
} lifespec_label_variant;

typedef struct {
    lifespec_label_variant *buckets[4096];
    /* Whether the layout's own labels have glyph layouts. */
    int layout_glyphs;
} lifespec_label_cache;

/// Create it right after the layout: it notes whether the layout's labels were made with glyphs.
static inline lifespec_label_cache *lifespec_label_cache_create(void) {
    lifespec_label_cache *cache = (lifespec_label_cache *)calloc(1, sizeof(lifespec_label_cache));
    if (cache != NULL) cache->layout_glyphs = lifespec_text_wants_glyphs;
    return cache;
}

static inline lifespec_label_variant **lifespec_label_bucket(lifespec_label_cache *cache, void *object) {
    uintptr_t key = (uintptr_t)object;
    return &cache->buckets[((key >> 4) ^ (key >> 16)) & 4095];
}

static inline int lifespec_same_text(const char *a, const char *b) {
    return strcmp(a ? a : "", b ? b : "") == 0;
}

/// A variant the drawing about to be made can show (with glyphs when it draws them).
static inline lifespec_label_variant *lifespec_label_find(
    lifespec_label_cache *cache, void *object, const char *text, int html, double size, const char *name,
    const char *color) {
    for (lifespec_label_variant *v = *lifespec_label_bucket(cache, object); v; v = v->next) {
        if (v->object == object && v->html == html && v->fontsize == size && (v->glyphs || !lifespec_text_wants_glyphs)
            && lifespec_same_text(v->text, text) && lifespec_same_text(v->fontname, name)
            && lifespec_same_text(v->fontcolor, color))
            return v;
    }
    return NULL;
}

static inline lifespec_label_variant *lifespec_label_variant_of(lifespec_label_cache *cache, void *object, textlabel_t *label) {
    for (lifespec_label_variant *v = *lifespec_label_bucket(cache, object); v; v = v->next)
        if (v->object == object && v->label == label) return v;
    return NULL;
}

/// Whether `label`, shown now, has the glyphs the drawing about to be made needs. Without a cache
/// (the root graph's legend) that is not known, and a drawing with glyphs rebuilds it.
static inline int lifespec_label_drawable(lifespec_label_cache *cache, void *object, textlabel_t *label) {
    if (!lifespec_text_wants_glyphs) return 1;
    if (cache == NULL) return 0;
    lifespec_label_variant *v = lifespec_label_variant_of(cache, object, label);
    return v != NULL ? v->glyphs : cache->layout_glyphs;
}

static inline int lifespec_label_add(
    lifespec_label_cache *cache, void *object, textlabel_t **slot, const char *text, int html, double size,
    const char *name, const char *color, textlabel_t *label, int glyphs) {
    lifespec_label_variant *v = (lifespec_label_variant *)calloc(1, sizeof *v);
    if (v == NULL) return 1;
    v->object = object;
    v->glyphs = glyphs;
    v->slot = slot;
    v->text = strdup(text ? text : "");
    v->fontname = strdup(name ? name : "");
    v->fontcolor = strdup(color ? color : "");
    v->html = html;
    v->fontsize = size;
    v->label = label;
    lifespec_label_variant **bucket = lifespec_label_bucket(cache, object);
    v->next = *bucket;
    *bucket = v;
    return 0;
}

/// Frees every label the cache holds except those in place (the graph's own cleanup frees those).
/// Called before the graph is released.
static inline void lifespec_label_cache_free(lifespec_label_cache *cache) {
    if (cache == NULL) return;
    lifespec_make_label_fn make;
    lifespec_free_label_fn release;
    int can_release = lifespec_label_functions(&make, &release);
    for (int i = 0; i < 4096; i++) {
        lifespec_label_variant *v = cache->buckets[i];
        while (v) {
            lifespec_label_variant *next = v->next;
            if (can_release && *v->slot != v->label) release(v->label);
            free(v->text);
            free(v->fontname);
            free(v->fontcolor);
            free(v);
            v = next;
        }
    }
    free(cache);
}

/// Rebuilds `*slot` from `source`'s label text, font and colour. With `same_size`, fails (returning
/// non-zero, the old label kept) unless the new label measures what the old one did. With a cache
/// (same-size labels only), a variant built before is swapped in, and the one replaced is kept.
static inline int lifespec_rebuild_label(Agraph_t *laid, void *object, int kind, void *source, textlabel_t **slot, int same_size, lifespec_label_cache *cache) {
    lifespec_make_label_fn make;
    lifespec_free_label_fn release;
    if (!lifespec_label_functions(&make, &release)) return 1;
    textlabel_t *old = *slot;
    if (old == NULL) return 1;
    Agsym_t *label_sym = agattr(agroot(source), kind, (char *)"label", NULL);
    char *text = label_sym ? agxget(source, label_sym) : NULL;
    if (text == NULL) return 1;
    const char *size_text = lifespec_attribute(source, kind, "fontsize", "14");
    double size = atof(size_text);
    const char *name = lifespec_attribute(source, kind, "fontname", "Times-Roman");
    const char *color = lifespec_attribute(source, kind, "fontcolor", "black");
    int html = aghtmlstr(text) ? 1 : 0;
    if (!same_size) cache = NULL;
    textlabel_t *fresh = NULL;
    if (cache != NULL) {
        /* The label the layout made is a variant too: the laid object's label attribute is never
           changed by a restyle, so it is still the text that label was made from. */
        if (lifespec_label_variant_of(cache, object, old) == NULL) {
            Agsym_t *laid_sym = agattr(laid, kind, (char *)"label", NULL);
            char *laid_text = laid_sym ? agxget(object, laid_sym) : NULL;
            if (laid_text == NULL
                || lifespec_label_add(cache, object, slot, laid_text, old->html ? 1 : 0, old->fontsize,
                       old->fontname, old->fontcolor, old, cache->layout_glyphs) != 0)
                return 1;
        }
        lifespec_label_variant *known = lifespec_label_find(cache, object, text, html, size, name, color);
        if (known != NULL) fresh = known->label;
    }
    if (fresh == old) return 0;
    int made = fresh == NULL;
    if (made) {
        fresh = make(object, text, html ? LIFESPEC_LT_HTML : LIFESPEC_LT_NONE, size, agstrdup(laid, (char *)name),
                     agstrdup(laid, (char *)color));
        if (fresh == NULL) return 1;
    }
    if (same_size && (fabs(fresh->dimen.x - old->dimen.x) > 1e-6 || fabs(fresh->dimen.y - old->dimen.y) > 1e-6)) {
        if (made) release(fresh);
        return 1;
    }
    if (made && cache != NULL
        && lifespec_label_add(cache, object, slot, text, html, size, name, color, fresh, lifespec_text_wants_glyphs) != 0) {
        release(fresh);
        return 1;
    }
    fresh->pos = old->pos;
    fresh->space = old->space;
    fresh->valign = old->valign;
    fresh->set = old->set;
    *slot = fresh;
    if (cache == NULL) release(old);
    return 0;
}

/// An object the restyle hides (its style is exactly `invis`) is not drawn, so only its style and
/// id are copied: the restyle's text may leave its label, shape and colours out (a scenario drawn
/// from its differences hides what its base drawing already shows; see ScenarioDifferences).
/// Returns 1 when hidden, 0 when not, -1 when the laid-out graph declares no style to set (the
/// renderer reads it through a symbol bound at layout time, so one declared later is not seen).
static inline int lifespec_restyle_hidden(Agraph_t *laid_root, void *laid, void *source, int kind) {
    Agsym_t *style = agattr(agroot(source), kind, (char *)"style", NULL);
    if (style == NULL || strcmp(agxget(source, style), "invis") != 0) return 0;
    Agsym_t *have = agattr(laid_root, kind, (char *)"style", NULL);
    if (have == NULL) return -1;
    agxset(laid, have, (char *)"invis");
    Agsym_t *id = agattr(agroot(source), kind, (char *)"id", NULL);
    Agsym_t *laid_id = agattr(laid_root, kind, (char *)"id", NULL);
    if (id != NULL && laid_id != NULL) agxset(laid, laid_id, agxget(source, id));
    return 1;
}

/// Copies `source`'s render-time attributes onto `laid` (same kind of object); labels are rebuilt
/// when their text or font colour differs. Returns non-zero when the two differ in a way that
/// would change the layout.
static inline int lifespec_restyle_object(Agraph_t *laid_root, void *laid, void *source, int kind, textlabel_t **label, int label_same_size, lifespec_label_cache *cache) {
    Agraph_t *source_root = agroot(source);
    if (kind != AGRAPH) {
        int hidden = lifespec_restyle_hidden(laid_root, laid, source, kind);
        if (hidden != 0) return hidden < 0;
    }
    int rebuild = 0;
    for (Agsym_t *sym = agnxtattr(source_root, kind, NULL); sym; sym = agnxtattr(source_root, kind, sym)) {
        char *wanted = agxget(source, sym);
        Agsym_t *have = agattr(laid_root, kind, sym->name, NULL);
        char *current = have ? agxget(laid, have) : sym->defval;
        if (current == NULL) current = (char *)"";
        int is_label = strcmp(sym->name, "label") == 0, is_color = strcmp(sym->name, "fontcolor") == 0;
        if ((is_label || is_color) && label != NULL && *label != NULL) {
            /* Compared with what is drawn now, which an earlier restyle may have changed. */
            textlabel_t *shown = *label;
            if (is_label && shown->html) { if (shown->text == NULL || strcmp(wanted, shown->text) != 0) rebuild = 1; }
            else if (is_label) { if (strcmp(wanted, current) != 0) rebuild = 1; }
            else if (strcmp(wanted[0] ? wanted : "black", shown->fontcolor ? shown->fontcolor : "black") != 0) rebuild = 1;
            continue;
        }
        if (strcmp(wanted, current) == 0) continue;
        if (!lifespec_is_render_attribute(kind, sym->name) || have == NULL) return 1;
        agxset(laid, have, wanted);
    }
    /* The label shown was built for a drawing without glyphs, and this one draws them. */
    if (!rebuild && label != NULL && *label != NULL && !lifespec_label_drawable(cache, laid, *label)) rebuild = 1;
    if (rebuild && lifespec_rebuild_label(laid_root, laid, kind, source, label, label_same_size, cache) != 0) return 1;
    return 0;
}

static inline int lifespec_restyle_clusters(Agraph_t *laid_root, Agraph_t *laid, Agraph_t *source, lifespec_label_cache *cache) {
    for (Agraph_t *sub = agfstsubg(source); sub; sub = agnxtsubg(sub)) {
        Agraph_t *match = agsubg(laid, agnameof(sub), 0);
        if (match == NULL) return 1;
        Agraphinfo_t *info = (Agraphinfo_t *)aggetrec(match, "Agraphinfo_t", 0);
        textlabel_t **label = info ? &info->label : NULL;
        if (lifespec_restyle_object(laid_root, match, sub, AGRAPH, label, 1, cache) != 0) return 1;
        if (lifespec_restyle_clusters(laid_root, match, sub, cache) != 0) return 1;
    }
    return 0;
}

/* The clusters' and the root graph's styles, and the drawing's bounds: the end of a restyle. */
static inline int lifespec_restyle_graphs(Agraph_t *laid, Agraph_t *source, const lifespec_layout_geometry *geometry, lifespec_label_cache *cache) {
    if (lifespec_restyle_clusters(laid, laid, source, cache) != 0) return 1;
    Agraphinfo_t *info = (Agraphinfo_t *)aggetrec(laid, "Agraphinfo_t", 0);
    if (info == NULL) return 1;
    info->bb = geometry->bb;
    if (lifespec_restyle_object(laid, laid, source, AGRAPH, &info->label, 0, NULL) != 0) return 1;
    if (geometry->has_label && info->label != NULL) {
        /* The legend keeps its top-left corner (dot's label box has 8 points of padding around the
           text horizontally and 4 vertically); the drawing grows to hold a larger one. */
        pointf padded_old = { geometry->label_dimen.x + 16, geometry->label_dimen.y + 8 };
        pointf padded_new = { info->label->dimen.x + 16, info->label->dimen.y + 8 };
        double left = geometry->label_pos.x - padded_old.x / 2;
        double top = geometry->label_pos.y + padded_old.y / 2;
        if (top - padded_new.y < info->bb.LL.y) info->bb.LL.y = top - padded_new.y;
        if (left + padded_new.x > info->bb.UR.x) info->bb.UR.x = left + padded_new.x;
        info->label->pos.x = left + padded_new.x / 2;
        info->label->pos.y = top - padded_new.y / 2;
        info->label->set = TRUE;
    }
    return 0;
}

/// Draws the laid-out `laid` with `source`'s styles (see above). Returns 0 on success.
static inline int lifespec_restyle(Agraph_t *laid, Agraph_t *source, const lifespec_layout_geometry *geometry, lifespec_label_cache *cache) {
    if (agnnodes(laid) != agnnodes(source) || agnedges(laid) != agnedges(source)) return 1;
    for (Agnode_t *n = agfstnode(source); n; n = agnxtnode(source, n)) {
        Agnode_t *match = agnode(laid, agnameof(n), 0);
        if (match == NULL) return 1;
        if (lifespec_restyle_object(laid, match, n, AGNODE, &ND_label(match), 1, cache) != 0) return 1;
    }
    /* Edges carry no names: the two graphs list them in the same order when they are the same graph. */
    for (Agnode_t *n = agfstnode(source); n; n = agnxtnode(source, n)) {
        Agnode_t *match = agnode(laid, agnameof(n), 0);
        Agedge_t *e = agfstout(source, n), *f = agfstout(laid, match);
        for (; e && f; e = agnxtout(source, e), f = agnxtout(laid, f)) {
            if (strcmp(agnameof(aghead(e)), agnameof(aghead(f))) != 0) return 1;
            if (lifespec_restyle_object(laid, f, e, AGEDGE, &ED_label(f), 1, cache) != 0) return 1;
        }
        if (e || f) return 1;
    }
    return lifespec_restyle_graphs(laid, source, geometry, cache);
}

/// A restyle that lists only part of the graph (a scenario's difference, see ScenarioDifferences):
/// every node and edge of `laid` that `source` leaves out is hidden (style `invis`), and the ones
/// it lists are restyled as lifespec_restyle does. Parsing a few dozen objects instead of every
/// one costs far less; the drawing is the same, since a hidden object draws nothing but its name
/// in a comment. Nodes are matched by name, edges by their head and `id` among their tail's
/// out-edges (refused when two match). Its clusters are all listed. Returns 0 on success.
static inline int lifespec_restyle_sparse(Agraph_t *laid, Agraph_t *source, const lifespec_layout_geometry *geometry, lifespec_label_cache *cache) {
    int node_count = agnnodes(source), edge_count = agnedges(source);
    if (node_count > agnnodes(laid) || edge_count > agnedges(laid)) return 1;
    Agsym_t *node_style = agattr(laid, AGNODE, (char *)"style", NULL);
    Agsym_t *edge_style = agattr(laid, AGEDGE, (char *)"style", NULL);
    /* A kind that leaves objects out hides them: its style must be declared where the renderer
       reads it (the laid-out graph), and in `source`, so each listed object's style is set even
       when it has none of its own. */
    int hide_nodes = node_count < agnnodes(laid), hide_edges = edge_count < agnedges(laid);
    if ((hide_nodes && node_style == NULL) || (hide_edges && edge_style == NULL)) return 1;
    if (hide_nodes && agattr(source, AGNODE, (char *)"style", NULL) == NULL) agattr(source, AGNODE, (char *)"style", (char *)"");
    if (hide_edges && agattr(source, AGEDGE, (char *)"style", NULL) == NULL) agattr(source, AGEDGE, (char *)"style", (char *)"");
    for (Agnode_t *n = agfstnode(laid); n; n = agnxtnode(laid, n)) {
        if (hide_nodes && agnode(source, agnameof(n), 0) == NULL) agxset(n, node_style, (char *)"invis");
        if (hide_edges) {
            for (Agedge_t *e = agfstout(laid, n); e; e = agnxtout(laid, e)) agxset(e, edge_style, (char *)"invis");
        }
    }
    for (Agnode_t *n = agfstnode(source); n; n = agnxtnode(source, n)) {
        Agnode_t *match = agnode(laid, agnameof(n), 0);
        if (match == NULL) return 1;
        if (lifespec_restyle_object(laid, match, n, AGNODE, &ND_label(match), 1, cache) != 0) return 1;
    }
    /* An edge without an id matches the one edge between the same nodes without one. */
    Agsym_t *laid_id = agattr(laid, AGEDGE, (char *)"id", NULL);
    Agsym_t *source_id = agattr(source, AGEDGE, (char *)"id", NULL);
    for (Agnode_t *n = agfstnode(source); n; n = agnxtnode(source, n)) {
        Agnode_t *tail = agnode(laid, agnameof(n), 0);
        for (Agedge_t *e = agfstout(source, n); e; e = agnxtout(source, e)) {
            const char *id = source_id ? agxget(e, source_id) : "", *head = agnameof(aghead(e));
            Agedge_t *match = NULL;
            for (Agedge_t *f = agfstout(laid, tail); f; f = agnxtout(laid, f)) {
                if (strcmp(laid_id ? agxget(f, laid_id) : "", id) != 0 || strcmp(agnameof(aghead(f)), head) != 0) continue;
                if (match != NULL) return 1;
                match = f;
            }
            if (match == NULL) return 1;
            if (lifespec_restyle_object(laid, match, e, AGEDGE, &ED_label(match), 1, cache) != 0) return 1;
        }
    }
    return lifespec_restyle_graphs(laid, source, geometry, cache);
}

/// Whether a box of `size` centred at `at` overlaps a state, or the label or overlay of an edge
/// other than `e`.
static inline int lifespec_overlay_collides(Agraph_t *graph, Agedge_t *e, pointf at, pointf size) {
    double left = at.x - size.x / 2, right = at.x + size.x / 2, bottom = at.y - size.y / 2, top = at.y + size.y / 2;
#define LIFESPEC_HITS(cx, cy, w, h) \
    ((cx) - (w) / 2 < right && (cx) + (w) / 2 > left && (cy) - (h) / 2 < top && (cy) + (h) / 2 > bottom)
    for (Agnode_t *n = agfstnode(graph); n; n = agnxtnode(graph, n)) {
        if (ND_shape(n) != NULL
            && LIFESPEC_HITS(ND_coord(n).x, ND_coord(n).y, ND_width(n) * 72, ND_height(n) * 72))
            return 1;
        for (Agedge_t *f = agfstout(graph, n); f; f = agnxtout(graph, f)) {
            if (f == e) continue;
            textlabel_t *labels[2] = { ED_label(f), ED_xlabel(f) };
            for (int i = 0; i < 2; i++) {
                textlabel_t *l = labels[i];
                if (l != NULL && l->set && LIFESPEC_HITS(l->pos.x, l->pos.y, l->dimen.x, l->dimen.y)) return 1;
            }
        }
    }
#undef LIFESPEC_HITS
    return 0;
}

/// Whether a box of `size` centred at `at` overlaps the title of `g` or of a cluster inside it.
static inline int lifespec_hits_cluster_title(Agraph_t *g, pointf at, pointf size) {
    for (int i = 1; i <= GD_n_cluster(g); i++) {
        Agraph_t *c = GD_clust(g)[i];
        textlabel_t *l = GD_label(c);
        if (l != NULL && l->set && fabs(l->pos.x - at.x) * 2 < l->dimen.x + size.x
            && fabs(l->pos.y - at.y) * 2 < l->dimen.y + size.y)
            return 1;
        if (lifespec_hits_cluster_title(c, at, size)) return 1;
    }
    return 0;
}

/// dot draws the label of an arrow that enters a group beside the arrow's middle virtual node,
/// which can fall on the group's first rank, inside the group, where the group's title is: it
/// reserves the title's height above the group's own states only. Such a label moves straight
/// down below the title (or up above it) when nothing else is there; the arrow runs on beside it.
/// Returns how many labels moved.
static inline int lifespec_clear_cluster_titles(Agraph_t *graph) {
    int moved = 0;
    for (Agnode_t *n = agfstnode(graph); n; n = agnxtnode(graph, n)) {
        for (Agedge_t *e = agfstout(graph, n); e; e = agnxtout(graph, e)) {
            textlabel_t *label = ED_label(e);
            if (label == NULL || !label->set || !lifespec_hits_cluster_title(graph, label->pos, label->dimen)) continue;
            /* The title it covers: the lowest bottom and highest top of those it touches. */
            double below = label->pos.y, above = label->pos.y;
            for (int pass = 0; pass < 120 && lifespec_hits_cluster_title(graph, (pointf){label->pos.x, below}, label->dimen); pass++)
                below -= 1;
            for (int pass = 0; pass < 120 && lifespec_hits_cluster_title(graph, (pointf){label->pos.x, above}, label->dimen); pass++)
                above += 1;
            /* Nearer first: the one fewer points away. */
            double first = label->pos.y - below <= above - label->pos.y ? below : above;
            double second = first == below ? above : below;
            double tries[2] = { first, second };
            for (int i = 0; i < 2; i++) {
                pointf at = { label->pos.x, tries[i] };
                if (lifespec_hits_cluster_title(graph, at, label->dimen) || lifespec_overlay_collides(graph, e, at, label->dimen)) continue;
                label->pos = at;
                moved++;
                break;
            }
        }
    }
    return moved;
}

/// Grows the drawing's bounding box to hold a box of `size` centred at `at` (a moved label or an
/// overlay), so nothing is cut off.
static inline void lifespec_grow_to_hold(Agraph_t *graph, pointf at, pointf size) {
    Agraphinfo_t *info = (Agraphinfo_t *)aggetrec(graph, "Agraphinfo_t", 0);
    if (info == NULL) return;
    double halfw = size.x / 2, halfh = size.y / 2;
    if (at.x - halfw < info->bb.LL.x) info->bb.LL.x = at.x - halfw;
    if (at.x + halfw > info->bb.UR.x) info->bb.UR.x = at.x + halfw;
    if (at.y - halfh < info->bb.LL.y) info->bb.LL.y = at.y - halfh;
    if (at.y + halfh > info->bb.UR.y) info->bb.UR.y = at.y + halfh;
}

/// Whether `e` draws a line (an invisible edge only steers the layout).
static inline int lifespec_edge_drawn(Agedge_t *e) {
    char *style = agget(e, (char *)"style");
    return ED_spl(e) != NULL && ED_spl(e)->size > 0 && (style == NULL || strstr(style, "invis") == NULL);
}

/// The square of the distance from a box of `size` centred at `at` to point `p`.
static inline double lifespec_box_point_distance2(pointf at, pointf size, pointf p) {
    double dx = fabs(p.x - at.x) - size.x / 2, dy = fabs(p.y - at.y) - size.y / 2;
    if (dx < 0) dx = 0;
    if (dy < 0) dy = 0;
    return dx * dx + dy * dy;
}

/// The distance from a box of `size` centred at `at` to point `p` (0 inside it).
static inline double lifespec_box_point_distance(pointf at, pointf size, pointf p) {
    return sqrt(lifespec_box_point_distance2(at, size, p));
}

/// Runs the code after `point` for each point along `e`'s curve: each cubic piece at 16 steps.
#define LIFESPEC_FOR_CURVE_POINTS(e, point, ...)                                                   \
    for (int lifespec_b = 0; lifespec_b < ED_spl(e)->size; lifespec_b++) {                        \
        bezier *lifespec_curve = &ED_spl(e)->list[lifespec_b];                                    \
        for (int lifespec_i = 0; lifespec_i + 3 < lifespec_curve->size; lifespec_i += 3) {        \
            pointf *lifespec_p = &lifespec_curve->list[lifespec_i];                               \
            for (int lifespec_s = lifespec_i == 0 ? 0 : 1; lifespec_s <= 16; lifespec_s++) {      \
                double t = lifespec_s / 16.0, u = 1 - t;                                          \
                pointf point = {                                                                  \
                    u * u * u * lifespec_p[0].x + 3 * u * u * t * lifespec_p[1].x                 \
                        + 3 * u * t * t * lifespec_p[2].x + t * t * t * lifespec_p[3].x,          \
                    u * u * u * lifespec_p[0].y + 3 * u * u * t * lifespec_p[1].y                 \
                        + 3 * u * t * t * lifespec_p[2].y + t * t * t * lifespec_p[3].y };        \
                __VA_ARGS__                                                                       \
            }                                                                                     \
        }                                                                                         \
    }

/// A drawn edge and the box of its curve's control points, which holds the whole curve.
typedef struct { Agedge_t *edge; boxf bounds; } lifespec_drawn_edge;

/// Every drawn edge of `graph` with its box; `*count` of them. The caller frees the array.
static inline lifespec_drawn_edge *lifespec_drawn_edges(Agraph_t *graph, int *count) {
    int capacity = 0;
    for (Agnode_t *n = agfstnode(graph); n; n = agnxtnode(graph, n))
        for (Agedge_t *f = agfstout(graph, n); f; f = agnxtout(graph, f)) capacity++;
    lifespec_drawn_edge *edges = malloc(sizeof(lifespec_drawn_edge) * (capacity > 0 ? capacity : 1));
    *count = 0;
    if (edges == NULL) return NULL;
    for (Agnode_t *n = agfstnode(graph); n; n = agnxtnode(graph, n))
        for (Agedge_t *f = agfstout(graph, n); f; f = agnxtout(graph, f)) {
            if (!lifespec_edge_drawn(f)) continue;
            boxf bounds = { { INFINITY, INFINITY }, { -INFINITY, -INFINITY } };
            for (int b = 0; b < ED_spl(f)->size; b++)
                for (int i = 0; i < ED_spl(f)->list[b].size; i++) {
                    pointf p = ED_spl(f)->list[b].list[i];
                    if (p.x < bounds.LL.x) bounds.LL.x = p.x;
                    if (p.y < bounds.LL.y) bounds.LL.y = p.y;
                    if (p.x > bounds.UR.x) bounds.UR.x = p.x;
                    if (p.y > bounds.UR.y) bounds.UR.y = p.y;
                }
            edges[(*count)++] = (lifespec_drawn_edge){ f, bounds };
        }
    return edges;
}

/// Whether an edge whose control points' box is `b` may come nearer than `limit` to a box of
/// `size` centred at `at`. When it says no, the curve, which lies in that box, is not nearer.
static inline int lifespec_bounds_within(boxf b, pointf at, pointf size, double limit) {
    double dx = fabs((b.LL.x + b.UR.x) / 2 - at.x) - (b.UR.x - b.LL.x) / 2 - size.x / 2;
    double dy = fabs((b.LL.y + b.UR.y) / 2 - at.y) - (b.UR.y - b.LL.y) / 2 - size.y / 2;
    if (dx < 0) dx = 0;
    if (dy < 0) dy = 0;
    return !(sqrt(dx * dx + dy * dy) >= limit);
}

/// A point of a drawn edge's curve and the edge's place among the drawn edges.
typedef struct { pointf at; int edge; } lifespec_curve_point;

/// Points `first` to `end - 1` of an edge's curve, and the box of those that are finite.
typedef struct { boxf bounds; int first, end; } lifespec_point_run;

/// The drawn edges of a graph with the points of their curves, each edge's together, and the
/// same points filed by region: a uniform grid of square cells over them, each cell's points
/// stored together. The points are those LIFESPEC_FOR_CURVE_POINTS gives (the same arithmetic, so
/// the same values to the bit). Only finite points are filed: one that is not is never nearer
/// than any limit, nor the nearest of a curve (its distance is below nothing).
///
/// Why: for every spot it tries, the label mover asks how near the label's own curve comes and
/// whether another curve comes nearer. Asked of every edge, that was most of what generate at
/// 2,000 states spent beyond the baseline (perf, lifespec-final2: lifespec_other_edge_within 3,800
/// samples, 15% of the run, besides the own curve's sampling inlined into its caller: it sampled a
/// long arrow's curve for every edge whose box held the spot). Asked of the cells around the spot,
/// it reads the points there and no others, and both answers stay exact (see
/// lifespec_other_edge_within and lifespec_own_edge_distance).
typedef struct {
    lifespec_drawn_edge *edges;
    int edge_count;
    /* Edge k's points are points[edge_first[k]] to points[edge_first[k + 1] - 1], in curve order. */
    pointf *points;
    int *edge_first;
    /* Cell c (row-major, from the bottom left) holds filed[cell_first[c]] to filed[cell_first[c + 1] - 1]. */
    lifespec_curve_point *filed;
    int *cell_first;
    double left, bottom, cell;
    int columns, rows;
    /* Each edge's points in runs of 16 (about a cubic piece) with the box of the run's finite
       points: edge k's runs are runs[run_first[k]] to runs[run_first[k + 1] - 1]. A run whose box
       is too far is passed over unread (lifespec_run_floor). */
    lifespec_point_run *runs;
    int *run_first;
} lifespec_edge_index;

static inline void lifespec_edge_index_free(lifespec_edge_index *index) {
    free(index->edges);
    free(index->points);
    free(index->edge_first);
    free(index->filed);
    free(index->cell_first);
    free(index->runs);
    free(index->run_first);
}

/// The cell a point falls in (its column and row clamped into the grid).
static inline int lifespec_edge_index_cell(const lifespec_edge_index *index, pointf p) {
    double x = floor((p.x - index->left) / index->cell), y = floor((p.y - index->bottom) / index->cell);
    int column = x < 0 ? 0 : x > index->columns - 1 ? index->columns - 1 : (int)x;
    int row = y < 0 ? 0 : y > index->rows - 1 ? index->rows - 1 : (int)y;
    return row * index->columns + column;
}

/// Takes the points of every drawn edge of `graph` and files them. Returns 0 on success; the
/// caller then frees the index with lifespec_edge_index_free.
static inline int lifespec_edge_index_build(Agraph_t *graph, lifespec_edge_index *index) {
    memset(index, 0, sizeof *index);
    index->edges = lifespec_drawn_edges(graph, &index->edge_count);
    if (index->edges == NULL) return 1;
    /* Each cubic piece gives 16 points, and a curve's first piece its start as well. */
    long capacity = 0;
    for (int k = 0; k < index->edge_count; k++) {
        splines *spl = ED_spl(index->edges[k].edge);
        for (int b = 0; b < spl->size; b++)
            if (spl->list[b].size >= 4) capacity += 16 * (long)((spl->list[b].size - 1) / 3) + 1;
    }
    if (capacity > INT_MAX / 8) {
        lifespec_edge_index_free(index);
        return 1;
    }
    index->points = malloc(sizeof(pointf) * (size_t)(capacity > 0 ? capacity : 1));
    index->edge_first = malloc(sizeof(int) * ((size_t)index->edge_count + 1));
    if (index->points == NULL || index->edge_first == NULL) {
        lifespec_edge_index_free(index);
        return 1;
    }
    int count = 0, total = 0;
    double left = INFINITY, bottom = INFINITY, right = -INFINITY, top = -INFINITY;
    for (int k = 0; k < index->edge_count; k++) {
        index->edge_first[k] = count;
        LIFESPEC_FOR_CURVE_POINTS(index->edges[k].edge, point, {
            if (count < capacity) index->points[count++] = point;
            if (isfinite(point.x) && isfinite(point.y)) {
                total++;
                if (point.x < left) left = point.x;
                if (point.y < bottom) bottom = point.y;
                if (point.x > right) right = point.x;
                if (point.y > top) top = point.y;
            }
        })
    }
    index->edge_first[index->edge_count] = count;
    if (total == 0) left = bottom = right = top = 0;
    /* Cells of 32 points: a label and the few points around it that matter span a handful of
       them. A drawing with few points spread wide gets larger cells, at most about 4 to a point. */
    double cell = 32, budget = 4.0 * total + 1024;
    while ((floor((right - left) / cell) + 1) * (floor((top - bottom) / cell) + 1) > budget) cell *= 2;
    index->left = left;
    index->bottom = bottom;
    index->cell = cell;
    index->columns = (int)floor((right - left) / cell) + 1;
    index->rows = (int)floor((top - bottom) / cell) + 1;
    int cells = index->columns * index->rows;
    index->cell_first = calloc((size_t)cells + 1, sizeof(int));
    index->filed = malloc(sizeof(lifespec_curve_point) * (size_t)(total > 0 ? total : 1));
    if (index->cell_first == NULL || index->filed == NULL) {
        lifespec_edge_index_free(index);
        return 1;
    }
    /* Count each cell's points, turn the counts into each cell's end, then file each point just
       below its cell's end: each end comes down to the cell's start. */
    for (int i = 0; i < count; i++)
        if (isfinite(index->points[i].x) && isfinite(index->points[i].y))
            index->cell_first[lifespec_edge_index_cell(index, index->points[i]) + 1]++;
    for (int c = 0; c < cells; c++) index->cell_first[c + 1] += index->cell_first[c];
    for (int k = 0; k < index->edge_count; k++)
        for (int i = index->edge_first[k]; i < index->edge_first[k + 1]; i++)
            if (isfinite(index->points[i].x) && isfinite(index->points[i].y))
                index->filed[--index->cell_first[lifespec_edge_index_cell(index, index->points[i]) + 1]] =
                    (lifespec_curve_point){ index->points[i], k };
    /* cell_first[c + 1] is now cell c's start. */
    for (int c = 0; c < cells; c++) index->cell_first[c] = index->cell_first[c + 1];
    index->cell_first[cells] = total;
    /* The runs. */
    index->run_first = malloc(sizeof(int) * ((size_t)index->edge_count + 1));
    index->runs = malloc(sizeof(lifespec_point_run) * (size_t)(count / 16 + index->edge_count + 1));
    if (index->run_first == NULL || index->runs == NULL) {
        lifespec_edge_index_free(index);
        return 1;
    }
    int runs = 0;
    for (int k = 0; k < index->edge_count; k++) {
        index->run_first[k] = runs;
        for (int first = index->edge_first[k]; first < index->edge_first[k + 1]; first += 16) {
            int end = first + 16 < index->edge_first[k + 1] ? first + 16 : index->edge_first[k + 1];
            boxf bounds = { { INFINITY, INFINITY }, { -INFINITY, -INFINITY } };
            for (int i = first; i < end; i++) {
                pointf point = index->points[i];
                if (!isfinite(point.x) || !isfinite(point.y)) continue;
                if (point.x < bounds.LL.x) bounds.LL.x = point.x;
                if (point.y < bounds.LL.y) bounds.LL.y = point.y;
                if (point.x > bounds.UR.x) bounds.UR.x = point.x;
                if (point.y > bounds.UR.y) bounds.UR.y = point.y;
            }
            index->runs[runs++] = (lifespec_point_run){ bounds, first, end };
        }
    }
    index->run_first[index->edge_count] = runs;
    return 0;
}

/// A square no larger than the squared distance (lifespec_box_point_distance2) from a box of `size`
/// centred at `at` to any point of a run whose box is `b`: the square of the gap between the two
/// boxes, each gap shrunk by far more than the roundings in measuring it or a point's distance
/// (a billionth of the coordinates' size), and the square shrunk by a trillionth for its own.
static inline double lifespec_run_floor(boxf b, pointf at, pointf size) {
    double cx = (b.LL.x + b.UR.x) / 2, cy = (b.LL.y + b.UR.y) / 2;
    double hw = (b.UR.x - b.LL.x) / 2, hh = (b.UR.y - b.LL.y) / 2;
    double slack = 1e-9 * (1 + fabs(at.x) + fabs(at.y) + fabs(cx) + fabs(cy) + hw + hh + size.x + size.y);
    double gx = fabs(cx - at.x) - hw - size.x / 2 - slack, gy = fabs(cy - at.y) - hh - size.y / 2 - slack;
    /* Not a number (a run with no finite point, or a box at no place) floors nothing. */
    if (!(gx > 0)) gx = 0;
    if (!(gy > 0)) gy = 0;
    return (gx * gx + gy * gy) * (1 - 1e-12);
}

/// The cells that hold every point nearer than `reach` to a box of `size` centred at `at`:
/// columns range[0]..range[1], rows range[2]..range[3]. Returns 0 when no cell does.
static inline int lifespec_edge_index_cells(const lifespec_edge_index *index, pointf at, pointf size, double reach, int range[4]) {
    /* A point nearer than `reach` lies within `reach` of the box along each axis; one point more
       holds any rounding of the distance. A `reach` that is not a number holds no point (nothing
       is nearer than it), an infinite one every point. */
    double half_x = size.x / 2 + reach + 1, half_y = size.y / 2 + reach + 1;
    double x0 = floor((at.x - half_x - index->left) / index->cell), x1 = floor((at.x + half_x - index->left) / index->cell);
    double y0 = floor((at.y - half_y - index->bottom) / index->cell), y1 = floor((at.y + half_y - index->bottom) / index->cell);
    if (!(x1 >= 0 && y1 >= 0 && x0 <= index->columns - 1 && y0 <= index->rows - 1)) return 0;
    range[0] = x0 > 0 ? (int)x0 : 0;
    range[1] = x1 < index->columns - 1 ? (int)x1 : index->columns - 1;
    range[2] = y0 > 0 ? (int)y0 : 0;
    range[3] = y1 < index->rows - 1 ? (int)y1 : index->rows - 1;
    return 1;
}

/// A square below which a distance may be below `limit`: when `squared` (the square the distance
/// is the root of) is no smaller, the distance, a correctly rounded root, is at least `limit`, so
/// the root need not be taken. The factor is far above the few roundings between; a limit too
/// small for its square to be exact gets no bound.
static inline double lifespec_squared_bound(double limit) {
    return limit > 1e-100 ? limit * limit * (1 + 1e-12) : INFINITY;
}

/// Whether the `k`th drawn edge comes nearer than `limit` to a box of `size` centred at `at` (the
/// test of lifespec_other_edge_within, for one edge): runs too far are passed over.
static inline int lifespec_edge_within(const lifespec_edge_index *index, int k, pointf at, pointf size, double limit) {
    if (!lifespec_bounds_within(index->edges[k].bounds, at, size, limit)) return 0;
    double bound = lifespec_squared_bound(limit);
    for (int r = index->run_first[k]; r < index->run_first[k + 1]; r++) {
        const lifespec_point_run *run = &index->runs[r];
        if (lifespec_run_floor(run->bounds, at, size) >= bound) continue;
        for (int i = run->first; i < run->end; i++) {
            double squared = lifespec_box_point_distance2(at, size, index->points[i]);
            if (squared < bound && sqrt(squared) < limit) return 1;
        }
    }
    return 0;
}

/// Whether a drawn edge other than the `own`th comes nearer than `limit` to a box of `size` centred
/// at `at`: whether one of its curve's points does, the edge's control-point box allowing. This is
/// the answer the earlier search over every edge gave (it skipped an edge whose box was too far and
/// sampled the rest): only the points in the cells around the box can be nearer than `limit`, and
/// each of those is measured as before. `*near` is an edge to ask first (or -1), and becomes the
/// one found: the spots of a label tried one after another are mostly ruled out by the same
/// neighbour, which its runs answer for in a few tests.
static inline int lifespec_other_edge_within(const lifespec_edge_index *index, int own, pointf at, pointf size, double limit, int *near) {
    if (*near >= 0 && *near != own && lifespec_edge_within(index, *near, at, size, limit)) return 1;
    int range[4];
    if (!lifespec_edge_index_cells(index, at, size, limit, range)) return 0;
    double bound = lifespec_squared_bound(limit);
    for (int row = range[2]; row <= range[3]; row++) {
        int first = row * index->columns;
        for (int i = index->cell_first[first + range[0]]; i < index->cell_first[first + range[1] + 1]; i++) {
            const lifespec_curve_point *p = &index->filed[i];
            if (p->edge == own) continue;
            double squared = lifespec_box_point_distance2(at, size, p->at);
            if (squared >= bound || !(sqrt(squared) < limit)) continue;
            if (lifespec_bounds_within(index->edges[p->edge].bounds, at, size, limit)) {
                *near = p->edge;
                return 1;
            }
        }
    }
    return 0;
}

/// The distance from a box of `size` centred at `at` to the `own`th edge's curve: the least of its
/// points' distances, when `start` is the square of one of them (or infinity). The root of the
/// smallest square is the smallest root (a correctly rounded root keeps the order), so one root is
/// taken; a run whose floor is no smaller than the smallest square yet holds no smaller one.
static inline double lifespec_own_edge_distance(const lifespec_edge_index *index, int own, pointf at, pointf size, double start) {
    double best = start;
    for (int r = index->run_first[own]; r < index->run_first[own + 1]; r++) {
        const lifespec_point_run *run = &index->runs[r];
        if (lifespec_run_floor(run->bounds, at, size) >= best) continue;
        for (int i = run->first; i < run->end; i++) {
            double squared = lifespec_box_point_distance2(at, size, index->points[i]);
            if (squared < best) best = squared;
        }
    }
    return sqrt(best);
}

/// What a label moving to a spot must not cover: the states, and the labels of the other edges
/// (read where they are when asked, as labels move). lifespec_overlay_collides asks the same of
/// the graph, walking its nodes and edges; the label mover asks it of this list, once for every
/// spot that passes the distances (perf, lifespec-2098e31: the walk was 72 of the mover's ~390
/// samples, generate at 2,000 states).
typedef struct { double x, y, width, height; } lifespec_state_box;
typedef struct { textlabel_t *label; Agedge_t *edge; } lifespec_edge_text;
typedef struct {
    lifespec_state_box *states;
    lifespec_edge_text *texts;
    int state_count, text_count;
} lifespec_obstacles;

static inline void lifespec_obstacles_free(lifespec_obstacles *obstacles) {
    free(obstacles->states);
    free(obstacles->texts);
}

/// Lists `graph`'s states and its edges' labels. Returns 0 on success.
static inline int lifespec_obstacles_build(Agraph_t *graph, lifespec_obstacles *obstacles) {
    memset(obstacles, 0, sizeof *obstacles);
    int nodes = 0, edges = 0;
    for (Agnode_t *n = agfstnode(graph); n; n = agnxtnode(graph, n)) {
        nodes++;
        for (Agedge_t *f = agfstout(graph, n); f; f = agnxtout(graph, f)) edges++;
    }
    obstacles->states = malloc(sizeof(lifespec_state_box) * (size_t)(nodes > 0 ? nodes : 1));
    obstacles->texts = malloc(sizeof(lifespec_edge_text) * (size_t)(2 * edges > 0 ? 2 * edges : 1));
    if (obstacles->states == NULL || obstacles->texts == NULL) {
        lifespec_obstacles_free(obstacles);
        return 1;
    }
    for (Agnode_t *n = agfstnode(graph); n; n = agnxtnode(graph, n)) {
        if (ND_shape(n) != NULL)
            obstacles->states[obstacles->state_count++] =
                (lifespec_state_box){ ND_coord(n).x, ND_coord(n).y, ND_width(n) * 72, ND_height(n) * 72 };
        for (Agedge_t *f = agfstout(graph, n); f; f = agnxtout(graph, f)) {
            if (ED_label(f) != NULL) obstacles->texts[obstacles->text_count++] = (lifespec_edge_text){ ED_label(f), f };
            if (ED_xlabel(f) != NULL) obstacles->texts[obstacles->text_count++] = (lifespec_edge_text){ ED_xlabel(f), f };
        }
    }
    return 0;
}

/// lifespec_overlay_collides's answer, from the list.
static inline int lifespec_obstacles_hit(const lifespec_obstacles *obstacles, Agedge_t *e, pointf at, pointf size) {
    double left = at.x - size.x / 2, right = at.x + size.x / 2, bottom = at.y - size.y / 2, top = at.y + size.y / 2;
#define LIFESPEC_HITS(cx, cy, w, h) \
    ((cx) - (w) / 2 < right && (cx) + (w) / 2 > left && (cy) - (h) / 2 < top && (cy) + (h) / 2 > bottom)
    for (int i = 0; i < obstacles->state_count; i++) {
        const lifespec_state_box *s = &obstacles->states[i];
        if (LIFESPEC_HITS(s->x, s->y, s->width, s->height)) return 1;
    }
    for (int i = 0; i < obstacles->text_count; i++) {
        const textlabel_t *l = obstacles->texts[i].label;
        if (obstacles->texts[i].edge != e && l->set && LIFESPEC_HITS(l->pos.x, l->pos.y, l->dimen.x, l->dimen.y)) return 1;
    }
#undef LIFESPEC_HITS
    return 0;
}

/// A spot a label may move to: its centre and the point of its own curve it was set beside.
typedef struct { pointf at; pointf beside; } lifespec_label_spot;

/// A spot's place in the order spots are tried: how far it is from where dot put the label, and
/// its number in the order they were made.
typedef struct { double moved; int spot; } lifespec_spot_key;

/// Spots are tried nearest first and, of spots as near, the one made first: the order a stable
/// sort by distance gives, which is what sorting every spot with qsort gave (glibc's qsort is a
/// merge sort). The keys are unique, so that order is the only one.
static inline int lifespec_spot_before(lifespec_spot_key a, lifespec_spot_key b) {
    return a.moved < b.moved || (a.moved == b.moved && a.spot < b.spot);
}

/// Moves `heap[i]` down the first `count` keys of a binary heap to where it belongs.
static inline void lifespec_spot_sift_down(lifespec_spot_key *heap, int count, int i) {
    lifespec_spot_key item = heap[i];
    for (;;) {
        int child = 2 * i + 1;
        if (child >= count) break;
        if (child + 1 < count && lifespec_spot_before(heap[child + 1], heap[child])) child++;
        if (!lifespec_spot_before(heap[child], item)) break;
        heap[i] = heap[child];
        i = child;
    }
    heap[i] = item;
}

/// The keys in the order a stable sort gives them, for the case lifespec_spot_before cannot order
/// (a distance that is not a number): qsort, as before.
static inline int lifespec_compare_spot_keys(const void *a, const void *b) {
    double x = ((const lifespec_spot_key *)a)->moved, y = ((const lifespec_spot_key *)b)->moved;
    return x < y ? -1 : x > y;
}

/// The innermost group of `g` (searched down from it) that holds both `a` and `b`; `g` itself when
/// no group inside it holds both.
static inline Agraph_t *lifespec_common_cluster(Agraph_t *g, Agnode_t *a, Agnode_t *b) {
    for (int i = 1; i <= GD_n_cluster(g); i++) {
        Agraph_t *c = GD_clust(g)[i];
        if (agsubnode(c, a, 0) != NULL && agsubnode(c, b, 0) != NULL) return lifespec_common_cluster(c, a, b);
    }
    return g;
}

/// Whether a box of `size` centred at `at` lies inside group `c`'s border, `inset` points in from it.
static inline int lifespec_inside_cluster(Agraph_t *c, pointf at, pointf size, double inset) {
    boxf bb = GD_bb(c);
    return at.x - size.x / 2 >= bb.LL.x + inset && at.x + size.x / 2 <= bb.UR.x - inset
        && at.y - size.y / 2 >= bb.LL.y + inset && at.y + size.y / 2 <= bb.UR.y - inset;
}

/// dot places an arrow's label beside a virtual node on the arrow's middle rank, and the curve it
/// then draws can bend away from it, toward a neighbouring arrow: the label reads as the
/// neighbour's (the flagship's "Become active" beside the arrow drawn back). Such a label moves to
/// the nearest spot beside its own curve (2 points off it, on any side) where its own arrow is the
/// nearest, runs through none of its text, and it covers no state, label or group title; the
/// drawing grows to hold it. A label no spot fits stays where dot put it. The same goes for a label
/// dot set outside the innermost group holding both ends of its arrow (it read as the group's
/// neighbour's, or crossed the group's border: swiftui-scene-phase's "This scene"); a label of an
/// arrow inside a group only moves to spots inside it. Returns how many labels moved.
static inline int lifespec_keep_labels_by_their_edges(Agraph_t *graph) {
    int moved = 0;
    const double gap = 2, margin = 1;
    lifespec_edge_index index;
    lifespec_obstacles obstacles;
    if (lifespec_edge_index_build(graph, &index) != 0) return 0;
    if (lifespec_obstacles_build(graph, &obstacles) != 0) {
        lifespec_edge_index_free(&index);
        return 0;
    }
    /* The drawn edges are listed in the graph's order, the order the labels are visited in. */
    for (int own = 0; own < index.edge_count; own++) {
        Agedge_t *e = index.edges[own].edge;
        textlabel_t *label = ED_label(e);
        if (label == NULL || !label->set) continue;
        pointf size = label->dimen;
        /* Distances are measured from the label's box and from its text alone (dot pads a
           label by up to 16 x 8 points): its own curve must be the nearest to both. */
        pointf boxes[2] = { size, { size.x > 16 ? size.x - 16 : size.x, size.y > 8 ? size.y - 8 : size.y } };
        Agraph_t *home = lifespec_common_cluster(graph, agtail(e), aghead(e));
        int astray = home != graph && !lifespec_inside_cluster(home, label->pos, boxes[1], 0), near = -1;
        for (int b = 0; b < 2 && !astray; b++)
            if (lifespec_other_edge_within(
                    &index, own, label->pos, boxes[b], lifespec_own_edge_distance(&index, own, label->pos, boxes[b], INFINITY) + margin,
                    &near))
                astray = 1;
        if (!astray) continue;
        int capacity = 12 * (index.edge_first[own + 1] - index.edge_first[own]);
        lifespec_label_spot *spots = malloc(sizeof(lifespec_label_spot) * (capacity > 0 ? capacity : 1));
        lifespec_spot_key *order = malloc(sizeof(lifespec_spot_key) * (capacity > 0 ? capacity : 1));
        if (spots == NULL || order == NULL) {
            free(spots);
            free(order);
            continue;
        }
        int count = 0, unordered = 0;
        /* Its curve's points, as LIFESPEC_FOR_CURVE_POINTS gives them. */
        for (int p = index.edge_first[own]; p < index.edge_first[own + 1]; p++) {
            pointf point = index.points[p];
            /* Further off where the curve bends back toward the label. */
            pointf candidates[12];
            for (int k = 0; k < 3; k++) {
                double off = gap * (1 + 4 * k);
                candidates[4 * k] = (pointf){ point.x + size.x / 2 + off, point.y };
                candidates[4 * k + 1] = (pointf){ point.x - size.x / 2 - off, point.y };
                candidates[4 * k + 2] = (pointf){ point.x, point.y + size.y / 2 + off };
                candidates[4 * k + 3] = (pointf){ point.x, point.y - size.y / 2 - off };
            }
            for (int i = 0; i < 12; i++) {
                double dx = candidates[i].x - label->pos.x, dy = candidates[i].y - label->pos.y;
                spots[count].at = candidates[i];
                spots[count].beside = point;
                order[count] = (lifespec_spot_key){ sqrt(dx * dx + dy * dy), count };
                if (isnan(order[count].moved)) unordered = 1;
                count++;
            }
        }
        /* Spots come off a heap nearest first, as they are tried: a label that fits early orders
           only the spots it tries, and without qsort's call for every comparison. Sorting them all
           was over a third of what the mover still spent (perf, lifespec-08c378f, generate at
           2,000 states: qsort and its comparisons 390 of about 1,060 samples). */
        if (unordered) qsort(order, count, sizeof(lifespec_spot_key), lifespec_compare_spot_keys);
        else
            for (int i = count / 2 - 1; i >= 0; i--) lifespec_spot_sift_down(order, count, i);
        /* The nearest spot its own curve does not run through either, where it bends; else
           the nearest one its own curve touches, which still reads as that curve's. One pass:
           the state and label checks only for spots the distances allow. */
        int chosen = -1, touching = -1;
        for (int tried = 0; tried < count && chosen < 0; tried++) {
            int i = order[unordered ? tried : 0].spot;
            if (!unordered) {
                order[0] = order[count - 1 - tried];
                lifespec_spot_sift_down(order, count - 1 - tried, 0);
            }
            pointf at = spots[i].at;
            int fits = 1, clear = 1;
            for (int b = 0; b < 2 && fits; b++) {
                /* The point it was set beside is one of its curve's points. */
                double beside = lifespec_box_point_distance2(at, boxes[b], spots[i].beside);
                double mine = lifespec_own_edge_distance(&index, own, at, boxes[b], beside);
                if (b == 0 && mine < 1) clear = 0;
                if (lifespec_other_edge_within(&index, own, at, boxes[b], mine + margin, &near)) fits = 0;
            }
            if (!fits || (!clear && touching >= 0)) continue;
            if (home != graph && !lifespec_inside_cluster(home, at, boxes[1], 1)) continue;
            if (lifespec_obstacles_hit(&obstacles, e, at, size) || lifespec_hits_cluster_title(graph, at, size)) continue;
            if (clear) chosen = i;
            else touching = i;
        }
        if (chosen < 0) chosen = touching;
        if (chosen >= 0) {
            pointf at = spots[chosen].at;
            label->pos = at;
            lifespec_grow_to_hold(graph, at, size);
            moved++;
        }
        free(spots);
        free(order);
    }
    lifespec_obstacles_free(&obstacles);
    lifespec_edge_index_free(&index);
    return moved;
}

/// A black HTML-like label of edge `e`, laid out by Graphviz (so `dimen` is its size); NULL when
/// Graphviz refuses it. The caller frees it with the library's free function.
static inline textlabel_t *lifespec_make_html_label(
    Agraph_t *graph, Agedge_t *e, lifespec_make_label_fn make, const char *html, double fontsize, const char *fontname) {
    char *text = agstrdup_html(graph, (char *)html);
    char *font = agstrdup(graph, (char *)fontname);
    char *color = agstrdup(graph, (char *)"black");
    textlabel_t *label = make(e, text, LIFESPEC_LT_HTML, fontsize, font, color);
    agstrfree(graph, text);
    return label;
}

/// Places `html` (an HTML-like label) over edge `e` as an overlay: to the left of the top line
/// of the edge's label when it has one, else centred on the middle of its curve. The drawing grows
/// to hold it. Returns 0 on success; lifespec_remove_overlay takes it away again.
static inline int lifespec_place_overlay(Agraph_t *graph, Agedge_t *e, const char *html, double fontsize, const char *fontname) {
    lifespec_make_label_fn make;
    lifespec_free_label_fn release;
    if (!lifespec_label_functions(&make, &release)) return 1;
    if (ED_xlabel(e) != NULL) return 1;
    textlabel_t *overlay = lifespec_make_html_label(graph, e, make, html, fontsize, fontname);
    if (overlay == NULL) return 1;
    textlabel_t *label = ED_label(e);
    pointf at;
    if (label != NULL && label->set) {
        /* 2 points clear of the label's text, so a number does not read as part of its first word. */
        at.x = label->pos.x - label->dimen.x / 2 - overlay->dimen.x / 2 - 2;
        at.y = label->pos.y + label->dimen.y / 2 - overlay->dimen.y / 2 - 1;
    } else if (ED_spl(e) != NULL && ED_spl(e)->size > 0 && ED_spl(e)->list[0].size > 0) {
        /* The middle of the curve: the joint between its two middle pieces, or the middle of the
           middle piece (a cubic at t = 1/2) when it has an odd number of them. */
        bezier *curve = &ED_spl(e)->list[ED_spl(e)->size / 2];
        int pieces = (curve->size - 1) / 3;
        if (pieces % 2 == 0 && pieces > 0) {
            at = curve->list[3 * (pieces / 2)];
        } else if (pieces > 0) {
            pointf *p = &curve->list[3 * (pieces / 2)];
            at.x = (p[0].x + 3 * p[1].x + 3 * p[2].x + p[3].x) / 8;
            at.y = (p[0].y + 3 * p[1].y + 3 * p[2].y + p[3].y) / 8;
        } else {
            at = curve->list[0];
        }
    } else {
        release(overlay);
        return 1;
    }
    /* Beside the label's left edge it may cover a neighbour (a parallel arrow's label, a state):
       then beside its right edge, if that is clear. */
    if (label != NULL && label->set && lifespec_overlay_collides(graph, e, at, overlay->dimen)) {
        pointf right = { label->pos.x + label->dimen.x / 2 + overlay->dimen.x / 2 + 2, at.y };
        if (!lifespec_overlay_collides(graph, e, right, overlay->dimen)) at = right;
    }
    overlay->pos = at;
    overlay->set = TRUE;
    ED_xlabel(e) = overlay;
    lifespec_grow_to_hold(graph, at, overlay->dimen);
    return 0;
}

/// The size (points) `html` takes as a label of edge `e`: in `fontname` at `fontsize`, or in the
/// font of the edge's own label when `fontsize` is not positive (its lines measure as the label's
/// do). Returns 0 on success.
static inline int lifespec_measure_html(
    Agraph_t *graph, Agedge_t *e, const char *html, double fontsize, const char *fontname, double *width, double *height) {
    lifespec_make_label_fn make;
    lifespec_free_label_fn release;
    if (!lifespec_label_functions(&make, &release)) return 1;
    textlabel_t *label = ED_label(e);
    if (fontsize <= 0) {
        if (label == NULL) return 1;
        fontsize = label->fontsize;
        fontname = label->fontname;
    }
    textlabel_t *measured = lifespec_make_html_label(graph, e, make, html, fontsize, fontname);
    if (measured == NULL) return 1;
    *width = measured->dimen.x;
    *height = measured->dimen.y;
    release(measured);
    return 0;
}

static inline void lifespec_remove_overlay(Agedge_t *e) {
    lifespec_make_label_fn make;
    lifespec_free_label_fn release;
    if (!lifespec_label_functions(&make, &release)) return;
    if (ED_xlabel(e) != NULL) release(ED_xlabel(e));
    ED_xlabel(e) = NULL;
    if (ED_tail_label(e) != NULL) release(ED_tail_label(e));
    ED_tail_label(e) = NULL;
}

/// Places `html` above the whole drawing, at its left edge, as a heading: held by edge `e` (whose
/// tail label it becomes, so it is drawn with the edge; the edge must have none). The drawing
/// grows upwards to hold it. Returns 0 on success; lifespec_remove_overlay takes it away again.
static inline int lifespec_place_heading(Agraph_t *graph, Agedge_t *e, const char *html, double fontsize, const char *fontname) {
    lifespec_make_label_fn make;
    lifespec_free_label_fn release;
    if (!lifespec_label_functions(&make, &release)) return 1;
    if (ED_tail_label(e) != NULL) return 1;
    Agraphinfo_t *info = (Agraphinfo_t *)aggetrec(graph, "Agraphinfo_t", 0);
    if (info == NULL) return 1;
    char *text = agstrdup_html(graph, (char *)html);
    char *font = agstrdup(graph, (char *)fontname);
    char *color = agstrdup(graph, (char *)"black");
    textlabel_t *heading = make(e, text, LIFESPEC_LT_HTML, fontsize, font, color);
    agstrfree(graph, text);
    if (heading == NULL) return 1;
    /* As far from the drawing's left edge as the legend's text is (8 points), and 6 points above it. */
    heading->pos.x = info->bb.LL.x + 8 + heading->dimen.x / 2;
    heading->pos.y = info->bb.UR.y + 6 + heading->dimen.y / 2;
    heading->set = TRUE;
    ED_tail_label(e) = heading;
    info->bb.UR.y += 6 + heading->dimen.y;
    if (info->bb.UR.x < heading->pos.x + heading->dimen.x / 2) info->bb.UR.x = heading->pos.x + heading->dimen.x / 2;
    return 0;
}

/// The edge whose `id` attribute is `id`, or NULL.
static inline Agedge_t *lifespec_edge_with_id(Agraph_t *graph, const char *id) {
    Agsym_t *sym = agattr(graph, AGEDGE, (char *)"id", NULL);
    if (sym == NULL) return NULL;
    for (Agnode_t *n = agfstnode(graph); n; n = agnxtnode(graph, n)) {
        for (Agedge_t *e = agfstout(graph, n); e; e = agnxtout(graph, e)) {
            char *value = agxget(e, sym);
            if (value != NULL && strcmp(value, id) == 0) return e;
        }
    }
    return NULL;
}

/// The resolution a laid-out graph is rasterised at: `dpi` (96 for screens), lowered so the
/// bitmap has at most `max_pixels` pixels. A 500-state machine is tens of thousands of pixels
/// wide at 96 dpi; cairo would allocate gigabytes for it. Returns the dpi chosen.
static inline double lifespec_set_bitmap_dpi(Agraph_t *graph, double dpi, double max_pixels) {
    Agraphinfo_t *info = (Agraphinfo_t *)aggetrec(graph, "Agraphinfo_t", 0);
    if (info == NULL || info->drawing == NULL) return 0;
    /* The `pad` attribute is in inches ("x" or "x,y"); Graphviz's bitmap default is 4 points. */
    char *padText = agget(graph, (char *)"pad");
    double pad = (padText != NULL && *padText != '\0') ? atof(padText) : 4.0 / 72.0;
    double width = (info->bb.UR.x - info->bb.LL.x) / 72.0 + 2 * pad;
    double height = (info->bb.UR.y - info->bb.LL.y) / 72.0 + 2 * pad;
    double chosen = dpi;
    if (width > 0 && height > 0 && width * height * dpi * dpi > max_pixels) {
        chosen = sqrt(max_pixels / (width * height));
    }
    info->drawing->dpi = chosen;
    return chosen;
}

/// Back to the device's own resolution (SVG is 72 dpi), after a bitmap render.
static inline void lifespec_clear_bitmap_dpi(Agraph_t *graph) {
    Agraphinfo_t *info = (Agraphinfo_t *)aggetrec(graph, "Agraphinfo_t", 0);
    if (info != NULL && info->drawing != NULL) info->drawing->dpi = 0;
}

#endif
