#include <zlib.h>

/* The raw deflate stream of RFC 1951 (no zlib or gzip wrapper), as the browsers'
   DecompressionStream("deflate-raw") reads it. The init macros of zlib.h are not imported. */
static inline int kb_deflate_raw_init(z_stream *stream, int level) {
    return deflateInit2(stream, level, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY);
}

static inline int kb_inflate_raw_init(z_stream *stream) {
    return inflateInit2(stream, -15);
}
