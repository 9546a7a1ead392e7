/*
 * The physical reference for the echo server's UDP port: one thread, one socket, epoll, the reversed-echo contract
 * of docs/protocol.md for datagrams with the 2-byte length field. Each wake-up drains the socket with recvmmsg, 64
 * datagrams a call, reverses every valid body in place and sends the batch back with one sendmmsg, so a batch of 64
 * costs two syscalls. A datagram whose length field is 0, above 4094 or not its size less 2 is dropped unanswered,
 * as the echo server drops it. A reply the socket does not take yet waits for it (poll), so nothing valid goes
 * unanswered here. Independent of Ricochet's code on purpose; no sessions, idle expiry or metrics, which is the
 * work it does not do.
 *
 * usage: udp_echo_server [PORT]   (0 or none: an ephemeral port; prints "listening udp 127.0.0.1:PORT")
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#define MAX_BODY 4094
#define BATCH 64
#define SLOT (MAX_BODY + 3) /* one byte more than the largest valid datagram, to see an oversized one */

static unsigned char bufs[BATCH][SLOT];
static struct sockaddr_in peers[BATCH];
static struct iovec iov[BATCH];
static struct mmsghdr in[BATCH], out[BATCH];

static int valid(const unsigned char *d, unsigned int size) {
    if (size < 2) return 0;
    unsigned int len = ((unsigned int) d[0] << 8) | d[1];
    return len >= 1 && len <= MAX_BODY && len == size - 2;
}

static void reverse(unsigned char *p, unsigned int n) {
    for (unsigned int i = 0, j = n - 1; i < j; i++, j--) {
        unsigned char t = p[i]; p[i] = p[j]; p[j] = t;
    }
}

/* Sends out[0, n), waiting for room when the socket has none. */
static void sendAll(int fd, int n) {
    int done = 0;
    while (done < n) {
        int sent = sendmmsg(fd, out + done, n - done, 0);
        if (sent > 0) {
            done += sent;
        } else if (sent < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            struct pollfd p = { .fd = fd, .events = POLLOUT };
            poll(&p, 1, 100);
        } else if (sent < 0 && errno != EINTR) {
            done++; /* this datagram cannot be sent (the peer is gone): skip it */
        }
    }
}

int main(int argc, char **argv) {
    int port = argc > 1 ? atoi(argv[1]) : 0;
    signal(SIGPIPE, SIG_IGN);
    int fd = socket(AF_INET, SOCK_DGRAM | SOCK_NONBLOCK, 0);
    int buffer = 4 * 1024 * 1024;
    setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &buffer, sizeof buffer);
    setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &buffer, sizeof buffer);
    struct sockaddr_in addr = { .sin_family = AF_INET, .sin_port = htons(port) };
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (bind(fd, (struct sockaddr *) &addr, sizeof addr) < 0) {
        perror("bind");
        return 1;
    }
    socklen_t len = sizeof addr;
    getsockname(fd, (struct sockaddr *) &addr, &len);
    printf("listening udp 127.0.0.1:%d\n", ntohs(addr.sin_port));
    fflush(stdout);

    int ep = epoll_create1(0);
    struct epoll_event ev = { .events = EPOLLIN, .data.fd = fd };
    epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev);
    for (int i = 0; i < BATCH; i++) {
        in[i].msg_hdr.msg_iov = &iov[i];
        in[i].msg_hdr.msg_iovlen = 1;
    }
    for (;;) {
        struct epoll_event ready;
        if (epoll_wait(ep, &ready, 1, -1) < 0) {
            if (errno == EINTR) continue;
            perror("epoll_wait");
            return 1;
        }
        for (;;) {
            for (int i = 0; i < BATCH; i++) {
                iov[i].iov_base = bufs[i];
                iov[i].iov_len = SLOT;
                in[i].msg_hdr.msg_name = &peers[i];
                in[i].msg_hdr.msg_namelen = sizeof peers[i];
            }
            int n = recvmmsg(fd, in, BATCH, MSG_DONTWAIT, NULL);
            if (n <= 0) break; /* drained (EAGAIN) or interrupted: back to epoll */
            int m = 0;
            for (int i = 0; i < n; i++) {
                unsigned int size = in[i].msg_len;
                if (!valid(bufs[i], size)) continue;
                reverse(bufs[i] + 2, size - 2);
                iov[i].iov_len = size;
                out[m].msg_hdr = in[i].msg_hdr;
                out[m].msg_hdr.msg_iov = &iov[i];
                out[m].msg_hdr.msg_iovlen = 1;
                m++;
            }
            sendAll(fd, m);
            if (n < BATCH) break;
        }
    }
}
