/* A clock that can jump, for one Redis node: preloaded into redis-server (LD_PRELOAD), it adds
 * an offset to the wall clock (gettimeofday, time, clock_gettime(CLOCK_REALTIME...)), which is
 * the clock Redis expires keys by. The offset, in milliseconds, is read from the file named by
 * LOCKSTEP_CLOCK_OFFSET_FILE whenever the clock is read, so the run makes the jump by writing
 * the file.
 *
 * Why not libfaketime: Debian's redis-server allocates with jemalloc, which reads the clock
 * while it initialises; libfaketime then allocates in its own initialisation and the process
 * cannot start (wolfcw/libfaketime#130). This file calls the kernel directly and allocates
 * nothing. The monotonic clocks are left alone, as an NTP step leaves them. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

static long long offset_ms(void) {
    const char *path = getenv("LOCKSTEP_CLOCK_OFFSET_FILE");
    if (path == NULL) return 0;
    int fd = (int)syscall(SYS_openat, AT_FDCWD, path, O_RDONLY);
    if (fd < 0) return 0;
    char text[32];
    long n = (long)syscall(SYS_read, fd, text, sizeof text - 1);
    syscall(SYS_close, fd);
    if (n <= 0) return 0;
    text[n] = '\0';
    return strtoll(text, NULL, 10);
}

static int is_wall_clock(clockid_t clock) {
    return clock == CLOCK_REALTIME || clock == CLOCK_REALTIME_COARSE;
}

int clock_gettime(clockid_t clock, struct timespec *ts) {
    int result = (int)syscall(SYS_clock_gettime, clock, ts);
    if (result == 0 && is_wall_clock(clock)) {
        long long ns = (long long)ts->tv_sec * 1000000000LL + ts->tv_nsec + offset_ms() * 1000000LL;
        ts->tv_sec = (time_t)(ns / 1000000000LL);
        ts->tv_nsec = (long)(ns % 1000000000LL);
    }
    return result;
}

int gettimeofday(struct timeval *tv, void *tz) {
    struct timespec ts;
    int result = clock_gettime(CLOCK_REALTIME, &ts);
    if (result == 0) {
        tv->tv_sec = ts.tv_sec;
        tv->tv_usec = (suseconds_t)(ts.tv_nsec / 1000);
    }
    (void)tz;
    return result;
}

time_t time(time_t *out) {
    struct timespec ts;
    time_t now = clock_gettime(CLOCK_REALTIME, &ts) == 0 ? ts.tv_sec : (time_t)-1;
    if (out != NULL) *out = now;
    return now;
}
