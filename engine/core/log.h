/* log: the one place text leaves the engine.
 * Messages go to a sink (stdout/stderr by default; the console replaces it
 * so the same text shows in game). Errors are coloured by level, not by text.
 * Developer notices (which path a measurement chose, what it cost) are a
 * level of their own: always in the log, in the game only when asked for. */
#ifndef STRATA_LOG_H
#define STRATA_LOG_H

#include <stdarg.h>

typedef enum log_level { LOG_INFO, LOG_WARN, LOG_ERROR, LOG_OUTPUT, LOG_DEV } log_level;

/* A sink receives one formatted line (without trailing newline). */
typedef void (*log_sink_fn)(void *user, log_level level, const char *line);

void log_set_sink(log_sink_fn fn, void *user);
void log_reset_sink(void);
void log_msg(log_level level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void log_vmsg(log_level level, const char *fmt, va_list ap);

#define log_info(...) log_msg(LOG_INFO, __VA_ARGS__)
#define log_warn(...) log_msg(LOG_WARN, __VA_ARGS__)
#define log_error(...) log_msg(LOG_ERROR, __VA_ARGS__)
/* Script-readable output (key=value lines); always stdout by default. */
#define log_out(...) log_msg(LOG_OUTPUT, __VA_ARGS__)
/* A developer notice: stderr as info is, the console only with developer 1. */
#define log_dev(...) log_msg(LOG_DEV, __VA_ARGS__)

#endif
