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
} lifespec_id_state;

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
    for (size_t i = 0; i < state->count; i++) {
        if (state->names[i] == interned) { *id = (IDTYPE)(2 * (i + 1)); return 1; }
    }
    if (!createflag) { *id = 0; return 1; }
    if (state->count == state->capacity) {
        size_t capacity = state->capacity ? state->capacity * 2 : 64;
        char **names = (char **)realloc(state->names, capacity * sizeof(char *));
        if (names == NULL) return 0;
        state->names = names;
        state->capacity = capacity;
    }
    state->names[state->count++] = interned;
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

/// Adds LifeSpec's devices to a context; call once, right after gvContext().
static inline void lifespec_add_devices(GVC_t *gvc) {
    static gvdevice_engine_t engine = { NULL, lifespec_argb_format, NULL };
    static gvdevice_features_t features = {
        GVDEVICE_BINARY_FORMAT | GVDEVICE_DOES_TRUECOLOR,
        {0., 0.}, {0., 0.}, {96., 96.},
    };
    static gvplugin_installed_t devices[] = {
        {0, "lifespec_argb:cairo", 0, &engine, &features},
        {0, NULL, 0, NULL, NULL},
    };
    static gvplugin_api_t apis[] = {
        {API_device, devices},
        {(api_t)0, NULL},
    };
    static gvplugin_library_t library = { (char *)"lifespec", apis };
    gvAddLibrary(gvc, &library);
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
