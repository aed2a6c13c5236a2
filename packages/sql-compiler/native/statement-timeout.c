/*
 * A statement timeout for SQLite connections opened by better-sqlite3.
 *
 * better-sqlite3 runs a statement synchronously on the caller's thread, exposes no sqlite3_interrupt(),
 * and is built with SQLITE_OMIT_PROGRESS_CALLBACK. It can load extensions, though, and
 * sqlite3_interrupt() may be called from any thread. So this extension gives each connection that loads
 * it a watchdog thread, and learns when statements begin and end from sqlite3_trace_v2():
 *
 *   SQLITE_TRACE_STMT     a statement begins: note the time, wake the watchdog if it sleeps for good;
 *   SQLITE_TRACE_PROFILE  a statement ends (done, failed, reset or finalized): stop its clock.
 *
 * The watchdog sleeps until the running statement's deadline and then interrupts the connection, once per
 * statement. It does so holding the mutex the trace callbacks take, so the statement it interrupts is the
 * one it timed: one that has ended cannot have been replaced by the next in the meantime. An interrupt
 * that arrives just after a statement ended stays pending until SQLite clears it when the connection's
 * next statement starts with no other statement active (sqlite3_step() and sqlite3_prepare() do that).
 *
 * SQL interface: select colapi_statement_timeout(ms) sets the connection's limit (0 turns it off).
 * The state lives as long as that function: SQLite calls its destructor when the connection closes,
 * after every statement is finalized and before the extension is unloaded.
 *
 * Known gaps, all rare: a statement retried after SQLITE_SCHEMA runs untimed (SQLite reports no new start
 * for the retry). SQLite's schema reload, run inside sqlite3_prepare(), reports a start and no end; the
 * statement prepared starts right after and takes over the clock, but when that prepare fails, the idle
 * connection is interrupted once at the stale deadline (cleared at the next start as above), and a next
 * statement whose own text starts with "-- " is taken for a nested one and timed from the stale start.
 */
#include <sqlite3ext.h>
SQLITE_EXTENSION_INIT1

#include <pthread.h>
#include <string.h>
#include <time.h>

typedef struct Watchdog {
  sqlite3 *db;
  pthread_t thread;
  pthread_mutex_t mutex;
  pthread_cond_t wake;
  /* Everything below is guarded by mutex. */
  sqlite3_int64 timeout_ms;  /* 0: no limit */
  int running;               /* a statement is running, started at start_ms */
  sqlite3_stmt *stmt;        /* the running statement, to match its end */
  sqlite3_int64 start_ms;
  int interrupted;           /* this statement has been interrupted already */
  int sleeping;              /* the watchdog waits with no deadline: a start must wake it */
  int closing;
} Watchdog;

static sqlite3_int64 now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (sqlite3_int64)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Waits on the condition variable for at most ms milliseconds of the monotonic clock. */
static void wait_for(Watchdog *w, sqlite3_int64 ms) {
#ifdef __APPLE__
  struct timespec rel = { (time_t)(ms / 1000), (long)(ms % 1000) * 1000000 };
  pthread_cond_timedwait_relative_np(&w->wake, &w->mutex, &rel);
#else
  struct timespec at;
  clock_gettime(CLOCK_MONOTONIC, &at);
  at.tv_sec += (time_t)(ms / 1000);
  at.tv_nsec += (long)(ms % 1000) * 1000000;
  if (at.tv_nsec >= 1000000000) { at.tv_sec += 1; at.tv_nsec -= 1000000000; }
  pthread_cond_timedwait(&w->wake, &w->mutex, &at);
#endif
}

static void *watch(void *arg) {
  Watchdog *w = arg;
  pthread_mutex_lock(&w->mutex);
  while (!w->closing) {
    if (!w->running || w->interrupted || w->timeout_ms <= 0) {
      w->sleeping = 1;
      pthread_cond_wait(&w->wake, &w->mutex);
      w->sleeping = 0;
      continue;
    }
    sqlite3_int64 left = w->start_ms + w->timeout_ms - now_ms();
    if (left > 0) {
      /* Woken early or not, the loop looks again: the statement may have ended or been replaced. */
      wait_for(w, left);
    } else {
      sqlite3_interrupt(w->db);
      w->interrupted = 1;
    }
  }
  pthread_mutex_unlock(&w->mutex);
  return NULL;
}

static int on_trace(unsigned event, void *arg, void *p, void *x) {
  Watchdog *w = arg;
  pthread_mutex_lock(&w->mutex);
  if (event == SQLITE_TRACE_STMT) {
    /* A trigger's statements and statements SQLite runs inside another one are reported with "-- "
       before their text: they belong to the running statement and do not restart its clock. */
    const char *text = x;
    int nested = w->running && text != NULL && strncmp(text, "-- ", 3) == 0;
    if (!nested) {
      w->running = 1;
      w->stmt = p;
      w->start_ms = now_ms();
      w->interrupted = 0;
      if (w->sleeping && w->timeout_ms > 0) pthread_cond_signal(&w->wake);
    }
  } else if (event == SQLITE_TRACE_PROFILE && w->running && w->stmt == p) {
    w->running = 0;
    w->stmt = NULL;
  }
  pthread_mutex_unlock(&w->mutex);
  return 0;
}

static void set_timeout(sqlite3_context *context, int argc, sqlite3_value **argv) {
  Watchdog *w = sqlite3_user_data(context);
  int type = sqlite3_value_numeric_type(argv[0]);
  double value = sqlite3_value_double(argv[0]);
  (void)argc;
  /* better-sqlite3 binds a JavaScript number as a double: a whole one is fine (up to about 31 years). */
  if ((type != SQLITE_INTEGER && type != SQLITE_FLOAT) || !(value >= 0 && value <= 1e12)
      || value != (double)(sqlite3_int64)value) {
    sqlite3_result_error(context, "colapi_statement_timeout: expected a whole number of milliseconds >= 0", -1);
    return;
  }
  sqlite3_int64 ms = (sqlite3_int64)value;
  pthread_mutex_lock(&w->mutex);
  w->timeout_ms = ms;
  pthread_cond_signal(&w->wake);  /* a shorter limit may end the watchdog's current wait earlier */
  pthread_mutex_unlock(&w->mutex);
  sqlite3_result_int64(context, ms);
}

/* The function's destructor: the connection is closing (or the extension was loaded again). */
static void destroy(void *arg) {
  Watchdog *w = arg;
  pthread_mutex_lock(&w->mutex);
  w->closing = 1;
  pthread_cond_signal(&w->wake);
  pthread_mutex_unlock(&w->mutex);
  /* Joined without the mutex, which the watchdog needs to see `closing` and leave. */
  pthread_join(w->thread, NULL);
  pthread_cond_destroy(&w->wake);
  pthread_mutex_destroy(&w->mutex);
  sqlite3_free(w);
}

static int init_failed(char **error, const char *message, Watchdog *w, int made) {
  if (made >= 2) pthread_cond_destroy(&w->wake);
  if (made >= 1) pthread_mutex_destroy(&w->mutex);
  sqlite3_free(w);
  if (error) *error = sqlite3_mprintf("colapi statement timeout: %s", message);
  return SQLITE_ERROR;
}

#ifdef _WIN32
__declspec(dllexport)
#endif
int colapi_statement_timeout_init(sqlite3 *db, char **error, const sqlite3_api_routines *api) {
  SQLITE_EXTENSION_INIT2(api);
  Watchdog *w = sqlite3_malloc(sizeof *w);
  if (w == NULL) return SQLITE_NOMEM;
  memset(w, 0, sizeof *w);
  w->db = db;
  if (pthread_mutex_init(&w->mutex, NULL) != 0) return init_failed(error, "pthread_mutex_init failed", w, 0);
  pthread_condattr_t attr;
  pthread_condattr_init(&attr);
#ifndef __APPLE__
  pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);  /* deadlines on the clock now_ms() reads */
#endif
  int rc = pthread_cond_init(&w->wake, &attr);
  pthread_condattr_destroy(&attr);
  if (rc != 0) return init_failed(error, "pthread_cond_init failed", w, 1);
  if (pthread_create(&w->thread, NULL, watch, w) != 0) return init_failed(error, "pthread_create failed", w, 2);

  /* The trace callback first, then the function: loading the extension again on a connection replaces
     both, and replacing the function destroys the old state only once nothing refers to it any more. */
  sqlite3_trace_v2(db, SQLITE_TRACE_STMT | SQLITE_TRACE_PROFILE, on_trace, w);
  rc = sqlite3_create_function_v2(db, "colapi_statement_timeout", 1, SQLITE_UTF8 | SQLITE_DIRECTONLY, w,
                                  set_timeout, NULL, NULL, destroy);
  if (rc != SQLITE_OK) {
    /* SQLite has called destroy() already: the state is gone, so the trace must go too. */
    sqlite3_trace_v2(db, 0, NULL, NULL);
    if (error) *error = sqlite3_mprintf("colapi statement timeout: cannot register its function");
    return rc;
  }
  return SQLITE_OK;
}
