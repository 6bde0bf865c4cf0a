/* ordorun --tag-output (ordorun_output.h). */
#define _GNU_SOURCE
#include "ordorun_output.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define LINE_MAX_BYTES 65536   /* a longer line is cut into tagged pieces */

typedef struct stream {
    int    rd, wr;             /* pipe ends; -1 when closed */
    size_t len;
    char  *buf;                /* a line not yet ended */
} stream_t;

static stream_t *streams;      /* 2 per rank: stdout, stderr */
static int nstreams;

int ordorun_tag_open(int n)
{
    streams = calloc((size_t)2 * (size_t)n, sizeof(stream_t));
    if (streams == NULL)
        return -1;
    nstreams = 2 * n;
    for (int i = 0; i < nstreams; i++)
        streams[i].rd = streams[i].wr = -1;
    return 0;
}

int ordorun_tag_pipes(int rank)
{
    for (int k = 0; k < 2; k++) {
        stream_t *s = &streams[2 * rank + k];
        int fds[2];
        if (pipe2(fds, O_CLOEXEC) < 0)
            return -1;
        s->rd = fds[0];
        s->wr = fds[1];
        fcntl(s->rd, F_SETFL, fcntl(s->rd, F_GETFL) | O_NONBLOCK);
        s->buf = malloc(LINE_MAX_BYTES);
        if (s->buf == NULL)
            return -1;
    }
    return 0;
}

void ordorun_tag_child(int rank)
{
    dup2(streams[2 * rank].wr, STDOUT_FILENO);      /* dup2 drops O_CLOEXEC */
    dup2(streams[2 * rank + 1].wr, STDERR_FILENO);
}

void ordorun_tag_parent(int rank)
{
    for (int k = 0; k < 2; k++) {
        stream_t *s = &streams[2 * rank + k];
        if (s->wr >= 0)
            close(s->wr);
        s->wr = -1;
    }
}

void ordorun_tag_poll_set(struct pollfd *p)
{
    for (int i = 0; i < nstreams; i++)
        p[i] = (struct pollfd){.fd = streams[i].rd, .events = POLLIN};
}

static void write_all(int fd, const char *p, size_t n)
{
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return;             /* our own output is gone: nothing to tell */
        p += w;
        n -= (size_t)w;
    }
}

/* One tagged line (the newline added when the piece lacks one). */
static void emit(int i, const char *line, size_t n)
{
    char tag[24];
    int t = snprintf(tag, sizeof(tag), "[%d] ", i / 2);
    int out = i % 2 ? STDERR_FILENO : STDOUT_FILENO;
    write_all(out, tag, (size_t)t);
    write_all(out, line, n);
    if (n == 0 || line[n - 1] != '\n')
        write_all(out, "\n", 1);
}

/* Read what is there; 1 at end of stream. */
static int relay_one(int i)
{
    stream_t *s = &streams[i];
    for (;;) {
        ssize_t got = read(s->rd, s->buf + s->len, LINE_MAX_BYTES - s->len);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0)
            return errno != EAGAIN;
        if (got == 0) {
            if (s->len)
                emit(i, s->buf, s->len);
            s->len = 0;
            close(s->rd);
            s->rd = -1;
            return 1;
        }
        s->len += (size_t)got;
        size_t start = 0;
        for (char *nl; (nl = memchr(s->buf + start, '\n', s->len - start)) != NULL;) {
            size_t end = (size_t)(nl - s->buf) + 1;
            emit(i, s->buf + start, end - start);
            start = end;
        }
        memmove(s->buf, s->buf + start, s->len - start);
        s->len -= start;
        if (s->len == LINE_MAX_BYTES) {
            emit(i, s->buf, s->len);
            s->len = 0;
        }
    }
}

void ordorun_tag_relay(const struct pollfd *p)
{
    for (int i = 0; i < nstreams; i++)
        if (p[i].fd >= 0 && streams[i].rd >= 0 && (p[i].revents & (POLLIN | POLLHUP | POLLERR)))
            relay_one(i);
}

void ordorun_tag_close(void)
{
    for (int i = 0; i < nstreams; i++) {
        stream_t *s = &streams[i];
        /* what is in the pipe now; a process the rank left behind may keep
         * it open, so do not wait for its end */
        if (s->rd >= 0 && !relay_one(i) && s->len)
            emit(i, s->buf, s->len);
        if (s->rd >= 0)
            close(s->rd);
        if (s->wr >= 0)
            close(s->wr);
        free(s->buf);
    }
    free(streams);
    streams = NULL;
    nstreams = 0;
}
