/*
 * A minimal native baseline for the load generator: one thread, epoll (UDP: spinning), N connections, each keeping
 * D requests of SIZE bytes in flight (closed loop), 2-byte length field, every reply checked to be the
 * reversed body. Prints verified replies per second. Independent of Ricochet's code on purpose.
 *
 * With "udp" last, each connection is a connected UDP socket keeping D datagrams of one frame each in flight, and the
 * client spins over its sockets instead of sleeping in epoll (UDP_EPOLL=1 in the environment: epoll, as before): it
 * then takes one core of its own and is no longer what limits a single-threaded server at 10 x 1 (a C UDP server
 * answered 319K datagrams/s spinning against 100K woken by epoll, bench/udp-ucloud.sh); a
 * socket that has had no reply for 200 ms (a datagram lost) sends its D again, and the count of such resends is
 * printed. A resend leaves the lost datagrams' late replies (if any) to raise the depth, so only a run with 0
 * resends ran at depth D throughout.
 *
 * With INTERVAL_MS set in the environment, it also prints "interval EPOCH_SECONDS OK" every that many milliseconds
 * (the wall clock, and the verified replies so far), so that a fresh server's climb to its steady rate can be timed
 * from its launch (bench/warmup.sh).
 *
 * usage: [INTERVAL_MS=100] echo_client HOST PORT CONNECTIONS DEPTH SIZE SECONDS [udp]
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#define MAX_CONN 4096
#define BUF 65536

struct conn {
    int fd;
    unsigned char in[BUF];
    size_t have;
    double last; /* UDP: when a reply last came (or the datagrams were last sent) */
};

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Whether datagram d (r bytes) is the reversed body expected, framed. */
static int datagram_ok(const unsigned char *d, ssize_t r, int size, const unsigned char *expect) {
    unsigned len = r >= 2 ? (unsigned) ((d[0] << 8) | d[1]) : 0;
    return r == size + 2 && len == (unsigned) size && memcmp(d + 2, expect, size) == 0;
}

/* "interval EPOCH_SECONDS OK": the wall clock and the verified replies so far. */
static void print_interval(long long ok) {
    struct timeval wall;
    gettimeofday(&wall, NULL);
    printf("interval %.3f %lld\n", wall.tv_sec + wall.tv_usec / 1e6, ok);
}

/* UDP: sends its datagrams again on every socket without a reply for 200 ms; returns how many sockets did. */
static long long resend_stale(struct conn *conns, int n, int depth, const unsigned char *frame, int size, double t) {
    long long resent = 0;
    for (int c = 0; c < n; c++) {
        if (t - conns[c].last > 0.2) {
            for (int d = 0; d < depth; d++) {
                send(conns[c].fd, frame, size + 2, 0);
            }
            conns[c].last = t;
            resent++;
        }
    }
    return resent;
}

int main(int argc, char **argv) {
    int udp = argc == 8 && strcmp(argv[7], "udp") == 0;
    if (argc != 7 && !udp) {
        fprintf(stderr, "usage: %s HOST PORT CONNECTIONS DEPTH SIZE SECONDS [udp]\n", argv[0]);
        return 2;
    }
    int n = atoi(argv[3]), depth = atoi(argv[4]), size = atoi(argv[5]);
    double seconds = atof(argv[6]);
    if (n < 1 || n > MAX_CONN || depth < 1 || size < 1 || size > 4094 || (size + 2) * depth > BUF) {
        fprintf(stderr, "bad arguments\n");
        return 2;
    }
    unsigned char *frame = malloc(size + 2), *expect = malloc(size);
    frame[0] = size >> 8;
    frame[1] = size & 0xff;
    for (int i = 0; i < size; i++) {
        frame[2 + i] = (unsigned char) (i * 31 + 7);
        expect[size - 1 - i] = frame[2 + i];
    }
    unsigned char *burst = malloc((size + 2) * depth);
    for (int d = 0; d < depth; d++) {
        memcpy(burst + d * (size + 2), frame, size + 2);
    }
    struct sockaddr_in addr = {.sin_family = AF_INET, .sin_port = htons(atoi(argv[2]))};
    inet_pton(AF_INET, argv[1], &addr.sin_addr);
    int ep = epoll_create1(0);
    struct conn *conns = calloc(n, sizeof(struct conn));
    for (int c = 0; c < n; c++) {
        int fd = socket(AF_INET, udp ? SOCK_DGRAM : SOCK_STREAM, 0);
        int one = 1;
        if (!udp) {
            setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        }
        if (connect(fd, (struct sockaddr *) &addr, sizeof addr) != 0) {
            perror("connect");
            return 1;
        }
        conns[c].fd = fd;
        struct epoll_event ev = {.events = EPOLLIN, .data.ptr = &conns[c]};
        epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev);
        if (udp) {
            for (int d = 0; d < depth; d++) {
                send(fd, frame, size + 2, 0);
            }
            conns[c].last = now();
        } else if (write(fd, burst, (size + 2) * depth) != (size + 2) * depth) {
            perror("write");
            return 1;
        }
    }
    long long ok = 0, bad = 0, resent = 0;
    double start = now(), end = start + seconds;
    const char *interval_ms = getenv("INTERVAL_MS");
    double tick = interval_ms != NULL ? atof(interval_ms) / 1000 : 0, next_tick = start + tick;
    struct epoll_event events[256];
    unsigned char *out = malloc((size + 2) * depth);
    /* UDP spins over its sockets rather than sleeping in epoll_wait: at one datagram in flight per socket the rate is
       one over the round trip, and a client woken for every reply adds its own wake-up to each; spinning, it takes
       one core and leaves the server the other, so the server is what is measured. */
    int spin = udp && getenv("UDP_EPOLL") == NULL;
    double last_check = start;
    while (spin && now() < end) {
        for (int c = 0; c < n; c++) {
            unsigned char d[4096 + 3];
            ssize_t r = recv(conns[c].fd, d, sizeof d, MSG_DONTWAIT);
            if (r < 0) {
                continue;
            }
            datagram_ok(d, r, size, expect) ? ok++ : bad++;
            send(conns[c].fd, frame, size + 2, 0);
            conns[c].last = now();
        }
        double t = now();
        if (t - last_check > 0.02) {
            last_check = t;
            if (tick > 0 && t >= next_tick) {
                print_interval(ok);
                next_tick += tick;
            }
            resent += resend_stale(conns, n, depth, frame, size, t);
        }
    }
    while (!spin && now() < end) {
        int k = epoll_wait(ep, events, 256, udp || tick > 0 ? 20 : 100);
        if (tick > 0 && now() >= next_tick) {
            print_interval(ok);
            next_tick += tick;
        }
        if (udp) {
            resent += resend_stale(conns, n, depth, frame, size, now());
        }
        for (int e = 0; e < k; e++) {
            struct conn *c = events[e].data.ptr;
            if (udp) {
                unsigned char d[4096 + 3];
                ssize_t r;
                while ((r = recv(c->fd, d, sizeof d, MSG_DONTWAIT)) >= 0) {
                    datagram_ok(d, r, size, expect) ? ok++ : bad++;
                    send(c->fd, frame, size + 2, 0);
                }
                c->last = now();
                continue;
            }
            ssize_t r = read(c->fd, c->in + c->have, BUF - c->have);
            if (r <= 0) {
                fprintf(stderr, "connection closed\n");
                return 1;
            }
            c->have += r;
            size_t pos = 0;
            int replies = 0;
            while (c->have - pos >= (size_t) size + 2) {
                unsigned len = (c->in[pos] << 8) | c->in[pos + 1];
                if (len != (unsigned) size || memcmp(c->in + pos + 2, expect, size) != 0) {
                    bad++;
                } else {
                    ok++;
                }
                pos += size + 2;
                replies++;
            }
            memmove(c->in, c->in + pos, c->have - pos);
            c->have -= pos;
            if (replies > 0) {
                /* Send one request per reply: the pipeline stays full, one write per read. */
                for (int d = 0; d < replies; d++) {
                    memcpy(out + d * (size + 2), frame, size + 2);
                }
                if (write(c->fd, out, (size + 2) * replies) != (size + 2) * replies) {
                    perror("write");
                    return 1;
                }
            }
        }
    }
    double elapsed = now() - start;
    printf("native-%s%s connections %d depth %d size %d: %lld ok, %lld bad in %.2f s = %.0f replies/s",
            spin ? "spin" : "epoll", udp ? " udp" : "", n, depth, size, ok, bad, elapsed, ok / elapsed);
    printf(udp ? ", %lld resends after 200 ms without a reply\n" : "\n", resent);
    return bad == 0 ? 0 : 1;
}
