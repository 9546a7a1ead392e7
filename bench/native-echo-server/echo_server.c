/*
 * The physical reference for the echo server: one thread, level-triggered epoll, the reversed-echo contract of
 * docs/protocol.md with the 2-byte length field. Each readable connection gets one read; every complete frame in
 * it is reversed in place and the whole run of frames goes back in one write, so a read of 16 frames costs two
 * syscalls. A write the socket does not take whole is kept and finished on EPOLLOUT, with reading paused
 * meanwhile (backpressure). A length of 0 or above 4094 closes the connection. Independent of Ricochet's code on
 * purpose; no idle timeout, lingering close or metrics, which is the work it does not do.
 *
 * usage: echo_server [PORT]   (0 or none: an ephemeral port; prints "listening tcp 127.0.0.1:PORT")
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#define MAX_FRAME 4094
#define BUF 65536

struct conn {
    int fd;
    size_t have;          /* bytes in `in`, a partial frame at the end */
    size_t out_at, out_len; /* an unfinished write: in[out_at, out_at + out_len) */
    unsigned char in[BUF];
};

static void closeConn(int ep, struct conn *c) {
    epoll_ctl(ep, EPOLL_CTL_DEL, c->fd, NULL);
    close(c->fd);
    free(c);
}

static void reverse(unsigned char *p, size_t n) {
    for (size_t i = 0, j = n - 1; i < j; i++, j--) {
        unsigned char t = p[i];
        p[i] = p[j];
        p[j] = t;
    }
}

/* Writes what is owed; returns -1 on error, 0 if some is still owed (EPOLLOUT armed), 1 when done. */
static int flushOwed(int ep, struct conn *c) {
    while (c->out_len > 0) {
        ssize_t w = write(c->fd, c->in + c->out_at, c->out_len);
        if (w < 0) {
            if (errno == EAGAIN) {
                struct epoll_event ev = {.events = EPOLLOUT, .data.ptr = c};
                epoll_ctl(ep, EPOLL_CTL_MOD, c->fd, &ev);
                return 0;
            }
            return -1;
        }
        c->out_at += w;
        c->out_len -= w;
    }
    /* Done: move the partial frame that follows the written run to the front, and read again. */
    memmove(c->in, c->in + c->out_at, c->have - c->out_at);
    c->have -= c->out_at;
    c->out_at = 0;
    return 1;
}

static int onReadable(int ep, struct conn *c) {
    ssize_t r = read(c->fd, c->in + c->have, BUF - c->have);
    if (r <= 0) {
        return r < 0 && errno == EAGAIN ? 0 : -1;
    }
    c->have += r;
    size_t pos = 0;
    while (c->have - pos >= 2) {
        size_t len = (c->in[pos] << 8) | c->in[pos + 1];
        if (len == 0 || len > MAX_FRAME) {
            return -1;
        }
        if (c->have - pos < len + 2) {
            break;
        }
        reverse(c->in + pos + 2, len);
        pos += len + 2;
    }
    if (pos == 0) {
        return 0;
    }
    c->out_at = 0;
    c->out_len = pos;
    int done = flushOwed(ep, c);
    return done < 0 ? -1 : 0;
}

int main(int argc, char **argv) {
    signal(SIGPIPE, SIG_IGN);
    int port = argc > 1 ? atoi(argv[1]) : 0;
    int lfd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
    int one = 1;
    setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    struct sockaddr_in addr = {.sin_family = AF_INET, .sin_port = htons(port)};
    inet_pton(AF_INET, "127.0.0.1", &addr.sin_addr);
    if (bind(lfd, (struct sockaddr *) &addr, sizeof addr) != 0 || listen(lfd, 4096) != 0) {
        perror("bind");
        return 1;
    }
    socklen_t alen = sizeof addr;
    getsockname(lfd, (struct sockaddr *) &addr, &alen);
    printf("listening tcp 127.0.0.1:%d\n", ntohs(addr.sin_port));
    fflush(stdout);
    int ep = epoll_create1(0);
    struct epoll_event lev = {.events = EPOLLIN, .data.ptr = NULL};
    epoll_ctl(ep, EPOLL_CTL_ADD, lfd, &lev);
    struct epoll_event events[512];
    for (;;) {
        int k = epoll_wait(ep, events, 512, -1);
        for (int e = 0; e < k; e++) {
            struct conn *c = events[e].data.ptr;
            if (c == NULL) {
                int fd;
                while ((fd = accept4(lfd, NULL, NULL, SOCK_NONBLOCK)) >= 0) {
                    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
                    struct conn *n = malloc(sizeof *n);
                    n->fd = fd;
                    n->have = n->out_at = n->out_len = 0;
                    struct epoll_event ev = {.events = EPOLLIN, .data.ptr = n};
                    epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev);
                }
                continue;
            }
            int rc;
            if (c->out_len > 0) {
                rc = flushOwed(ep, c);
                if (rc == 1) {
                    struct epoll_event ev = {.events = EPOLLIN, .data.ptr = c};
                    epoll_ctl(ep, EPOLL_CTL_MOD, c->fd, &ev);
                }
            } else {
                rc = onReadable(ep, c);
            }
            if (rc < 0) {
                closeConn(ep, c);
            }
        }
    }
}
