package io.ricochet.loadgen.distributed;

import com.fasterxml.jackson.databind.JsonNode;
import io.ricochet.loadgen.distributed.proto.WorkerSummary;
import io.ricochet.loadgen.report.RpcSummary;
import io.ricochet.loadgen.report.Summary;

/** A worker's own summary in the typed form the controller merges, and the checks it passes first. */
final class WorkerSummaries {
    /** Longest transport, I/O or latency-kind label, and longest TLS session description, accepted. */
    static final int MAX_LABEL_CHARS = 32;
    /** Longest I/O label: {@code nio (auto: epoll unavailable: …)} carries the one-line cause of a fallback. */
    static final int MAX_IO_CHARS = 512;
    static final int MAX_SESSION_CHARS = 200;
    /** No run holds more connections than a worker's open-file limit allows; this is far above it. */
    static final int MAX_CONNECTIONS = 10_000_000;

    private WorkerSummaries() {
    }

    /** The typed form of a run's summary: a {@link Summary} or an {@link RpcSummary}. */
    static WorkerSummary of(Object summary) {
        if (summary instanceof Summary s) {
            WorkerSummary.Builder typed = WorkerSummary.newBuilder().setTransport(s.transport()).setIo(s.io())
                    .setConnections(s.connections()).setDurationS(s.durationS()).setLatencyKind(s.latencyKind())
                    .setHandshakes(s.handshakeTimeUs() != null).setTlsSession(orEmpty(s.tlsSession()))
                    .setFirstError(orEmpty(s.firstError())).setFirstBad(orEmpty(s.firstBad()));
            if (s.earlyData() != null) {
                typed.setEarlyDataCounted(true).setEarlyData(s.earlyData().early())
                        .setQuicConnections(s.earlyData().connections());
            }
            return typed.build();
        }
        if (summary instanceof RpcSummary r) {
            return WorkerSummary.newBuilder().setTransport("rpc").setIo(r.io()).setConnections(r.concurrency())
                    .setDurationS(r.totalTimeS()).setLatencyKind(r.latencyKind())
                    .setFirstError(orEmpty(r.firstError())).setFirstBad(orEmpty(r.firstBad())).build();
        }
        throw new IllegalArgumentException("summary: a " + summary.getClass().getSimpleName()
                + " (expected: Summary or RpcSummary)");
    }

    /**
     * The typed form of the JSON summary a worker built before {@code WorkerSummary} sends: echo-style summaries say
     * {@code connections} and {@code duration_s}, RPC ones {@code concurrency} and {@code total_time_s}.
     */
    static WorkerSummary fromJson(JsonNode json) {
        return WorkerSummary.newBuilder().setTransport(json.path("transport").asText("rpc"))
                .setIo(json.path("io").asText("-"))
                .setConnections(json.path("connections").asInt(json.path("concurrency").asInt()))
                .setDurationS(json.path("duration_s").asDouble(json.path("total_time_s").asDouble()))
                .setLatencyKind(json.path("latency_kind").asText("closed_loop"))
                .setHandshakes(json.has("handshake_time_us"))
                .setTlsSession(json.hasNonNull("tls_session") ? json.get("tls_session").asText() : "")
                .setEarlyDataCounted(json.hasNonNull("early_data"))
                .setEarlyData(json.path("early_data").path("early").asLong())
                .setQuicConnections(json.path("early_data").path("connections").asLong())
                .setFirstError(json.hasNonNull("first_error") ? json.get("first_error").asText() : "")
                .setFirstBad(json.hasNonNull("first_bad") ? json.get("first_bad").asText() : "").build();
    }

    /** What is wrong with {@code s}, naming the field and its value, or null if nothing is. */
    static String problem(WorkerSummary s) {
        if (s.getConnections() < 0 || s.getConnections() > MAX_CONNECTIONS) {
            return "connections: " + s.getConnections() + " (expected: 0.." + MAX_CONNECTIONS + ")";
        }
        if (!Double.isFinite(s.getDurationS()) || s.getDurationS() < 0) {
            return "duration_s: " + s.getDurationS() + " (expected: a finite number >= 0)";
        }
        if (!s.getLatencyKind().equals("closed_loop") && !s.getLatencyKind().equals("corrected")) {
            return "latency_kind: " + clip(s.getLatencyKind()) + " (expected: closed_loop or corrected)";
        }
        if (s.getTransport().length() > MAX_LABEL_CHARS || s.getIo().length() > MAX_IO_CHARS) {
            return "transport or io: " + clip(s.getTransport()) + ", " + clip(s.getIo()) + " (expected: at most "
                    + MAX_LABEL_CHARS + " and " + MAX_IO_CHARS + " characters)";
        }
        if (s.getEarlyData() < 0 || s.getQuicConnections() < 0 || s.getEarlyData() > s.getQuicConnections()) {
            return "early_data: " + s.getEarlyData() + " of " + s.getQuicConnections() + " (expected: 0 <= early <= "
                    + "connections)";
        }
        if (s.getTlsSession().length() > MAX_SESSION_CHARS) {
            return "tls_session: " + s.getTlsSession().length() + " characters (expected: at most " + MAX_SESSION_CHARS + ")";
        }
        return null;
    }

    private static String clip(String s) {
        return s.length() <= MAX_LABEL_CHARS ? "'" + s + "'" : "'" + s.substring(0, MAX_LABEL_CHARS) + "...'";
    }

    private static String orEmpty(String s) {
        return s == null ? "" : s;
    }
}
