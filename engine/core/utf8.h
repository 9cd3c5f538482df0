/* utf8: the few UTF-8 steps the console and text renderer share.
 * Input comes from the keyboard, the clipboard and files, so decoding is
 * strict: anything malformed reads as U+FFFD and never over-reads. */
#ifndef STRATA_UTF8_H
#define STRATA_UTF8_H

#include <stddef.h>

#define UTF8_REPLACEMENT 0xFFFDu

/* Decodes one codepoint from s[0..len); returns the bytes used (>= 1 when
 * len > 0). Overlong forms, surrogates and truncated sequences give U+FFFD
 * and consume one byte, so the next call resynchronises. */
static inline size_t utf8_decode(const char *s, size_t len, unsigned *cp)
{
    const unsigned char *u = (const unsigned char *)s;
    if (len == 0) { *cp = 0; return 0; }
    unsigned c = u[0];
    if (c < 0x80) { *cp = c; return 1; }
    size_t n = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 0;
    if (n == 0 || c > 0xF4 || n > len) { *cp = UTF8_REPLACEMENT; return 1; }
    unsigned v = c & (0x7Fu >> n);
    for (size_t i = 1; i < n; i++) {
        if ((u[i] & 0xC0) != 0x80) { *cp = UTF8_REPLACEMENT; return 1; }
        v = (v << 6) | (u[i] & 0x3Fu);
    }
    static const unsigned min[5] = { 0, 0, 0x80, 0x800, 0x10000 };
    if (v < min[n] || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF)) { *cp = UTF8_REPLACEMENT; return 1; }
    *cp = v;
    return n;
}

/* Writes cp as UTF-8 into out (4 bytes room); returns the length, 0 if cp is not encodable. */
static inline size_t utf8_encode(unsigned cp, char *out)
{
    if (cp < 0x80) { out[0] = (char)cp; return 1; }
    if (cp < 0x800) { out[0] = (char)(0xC0 | (cp >> 6)); out[1] = (char)(0x80 | (cp & 0x3F)); return 2; }
    if (cp >= 0xD800 && cp <= 0xDFFF) return 0;
    if (cp < 0x10000) {
        out[0] = (char)(0xE0 | (cp >> 12));
        out[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        out[2] = (char)(0x80 | (cp & 0x3F));
        return 3;
    }
    if (cp <= 0x10FFFF) {
        out[0] = (char)(0xF0 | (cp >> 18));
        out[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
        out[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
        out[3] = (char)(0x80 | (cp & 0x3F));
        return 4;
    }
    return 0;
}

/* Byte offset of the codepoint after / before position i (stays in [0, len]). */
static inline size_t utf8_next(const char *s, size_t len, size_t i)
{
    if (i >= len) return len;
    i++;
    while (i < len && ((unsigned char)s[i] & 0xC0) == 0x80) i++;
    return i;
}

static inline size_t utf8_prev(const char *s, size_t i)
{
    if (i == 0) return 0;
    i--;
    while (i > 0 && ((unsigned char)s[i] & 0xC0) == 0x80) i--;
    return i;
}

/* Number of codepoints in s[0..len). */
static inline size_t utf8_length(const char *s, size_t len)
{
    size_t n = 0;
    for (size_t i = 0; i < len; n++) {
        unsigned cp;
        i += utf8_decode(s + i, len - i, &cp);
    }
    return n;
}

#endif
