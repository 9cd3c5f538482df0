/* Console editing (engine/ui/console): a byte stream as key presses (with
 * modifiers), typed characters (any code point), pastes and submits. The
 * input line stays valid UTF-8 with the cursor inside it. */
#include <GLFW/glfw3.h>
#include <stdbool.h>

#include "fuzz_common.h"
#include "ui/cmd.h"
#include "ui/console.h"
#include "ui/cvar.h"

static const int k_keys[] = {
    GLFW_KEY_ENTER, GLFW_KEY_TAB,  GLFW_KEY_LEFT,    GLFW_KEY_RIGHT,     GLFW_KEY_HOME,        GLFW_KEY_END,
    GLFW_KEY_BACKSPACE, GLFW_KEY_DELETE, GLFW_KEY_UP, GLFW_KEY_DOWN,     GLFW_KEY_PAGE_UP,     GLFW_KEY_PAGE_DOWN,
    GLFW_KEY_A,     GLFW_KEY_E,    GLFW_KEY_K,       GLFW_KEY_U,         GLFW_KEY_W,           GLFW_KEY_V,
    GLFW_KEY_L,     GLFW_KEY_C,    GLFW_KEY_ESCAPE,  GLFW_KEY_GRAVE_ACCENT, GLFW_KEY_INSERT,   GLFW_KEY_KP_ENTER,
};

static const char *paste_text(void *user) { return user; }

static void setup(void)
{
    static bool done;
    if (done) return;
    done = true;
    cmd_register_builtins();
    cmd_unregister("exec");
    fuzz_register_cvars(CVAR_ARCHIVE);
}

static bool valid_utf8(const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        int n = *p < 0x80 ? 0 : (*p & 0xE0) == 0xC0 ? 1 : (*p & 0xF0) == 0xE0 ? 2 : (*p & 0xF8) == 0xF0 ? 3 : -1;
        if (n < 0) return false;
        p++;
        for (int i = 0; i < n; i++, p++)
            if ((*p & 0xC0) != 0x80) return false;
    }
    return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 8192) return 0;
    setup();
    char paste[64] = "set view.fov 80; echo \xc3\xa9\xe2\x82\xac";
    console *c = console_create(&(console_desc){ .max_lines = 50, .max_history = 20, .clipboard = paste_text,
                                                 .clipboard_user = paste });
    fuzz_quiet();
    console_set_open(c, true);
    for (size_t i = 0; i < size;) {
        uint8_t op = data[i++];
        switch (op % 5) {
        case 0:
        case 1: { /* a key with modifiers */
            if (i >= size) break;
            int mods = (op >> 3) & (GLFW_MOD_SHIFT | GLFW_MOD_CONTROL | GLFW_MOD_ALT);
            console_key(c, k_keys[data[i++] % (sizeof k_keys / sizeof k_keys[0])], mods);
            break;
        }
        case 2: /* a printable ASCII character */
            if (i < size) console_char(c, 32 + data[i++] % 95);
            break;
        case 3: { /* any code point, surrogates and out of range included */
            if (i + 3 > size) {
                i = size;
                break;
            }
            unsigned cp = (unsigned)data[i] << 16 | (unsigned)data[i + 1] << 8 | data[i + 2];
            i += 3;
            console_char(c, cp);
            break;
        }
        case 4: /* paste a run of the input's own bytes */
            if (i < size) {
                size_t n = data[i++] % 32;
                if (n > size - i) n = size - i;
                char *s = fuzz_string(data + i, n);
                console_paste(c, s);
                free(s);
                i += n;
            }
            break;
        }
        const char *in = console_input(c);
        FUZZ_CHECK(console_cursor(c) <= strlen(in));
        FUZZ_CHECK(valid_utf8(in));
        if (!console_is_open(c)) console_set_open(c, true);
    }
    console_destroy(c); /* restores the log sink */
    return 0;
}
