package io.ricochet.loadgen.scrape;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class MetricsScraperTest {

    @Test
    void framesAreTheServersEchoProtocolsWithTlsOnly() {
        ServerSample sample = MetricsScraper.parse("""
                # TYPE ricochet_frames_sent_total counter
                ricochet_frames_sent_total{io="epoll",name="ricochet",protocol="tcp",role="server"} 100.0
                ricochet_frames_sent_total{io="epoll",name="ricochet",protocol="udp",role="server"} 20.0
                ricochet_frames_sent_total{io="epoll",name="tls",protocol="tls",role="server"} 4.0
                ricochet_frames_sent_total{io="epoll",name="rpc",protocol="rpc",role="server"} 7.0
                ricochet_frames_sent_total{io="epoll",name="load",protocol="tcp",role="client"} 3.0
                ricochet_frames_received_total{io="epoll",name="ricochet",protocol="udp",role="server"} 30.0
                ricochet_frames_received_total{io="epoll",name="rpc",protocol="rpc",role="server"} 7.0
                ricochet_rpc_server_requests_seconds_count{method="m",name="rpc",status="OK"} 5.0
                """);
        assertEquals(124.0, sample.framesSent());
        assertEquals(30.0, sample.framesReceived());
        assertEquals(5.0, sample.rpcRequests());
    }

    /** An echo-server from before the protocol and role tags: its frames still count. */
    @Test
    void aServerWithTheOlderTransportTagStillCountsItsFrames() {
        ServerSample sample = MetricsScraper.parse("""
                # TYPE ricochet_frames_sent_total counter
                ricochet_frames_sent_total{transport="tcp"} 100.0
                ricochet_frames_sent_total{transport="udp"} 20.0
                ricochet_frames_sent_total{transport="rpc"} 7.0
                """);
        assertEquals(120.0, sample.framesSent());
    }

    @Test
    void noEchoFramesIsNaNNotZero() {
        ServerSample sample = MetricsScraper.parse("ricochet_frames_sent_total{transport=\"rpc\"} 7.0\n");
        assertEquals(Double.NaN, sample.framesSent());
    }
}
