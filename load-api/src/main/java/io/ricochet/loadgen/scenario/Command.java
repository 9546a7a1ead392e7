package io.ricochet.loadgen.scenario;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * What a {@link Scenario} runs: one of the load generator's commands, by the name the command line gives it.
 *
 * <pre>{@code
 * Command crr = Command.parse("crr");     // netperf's TCP_CRR: a connection per request
 * crr.distributable();                    // true: a controller can split it over workers
 * }</pre>
 */
public enum Command {
    /** The stress test: connections x rate, pipelined. */
    ECHO("echo"),
    /** netperf TCP_RR: one connection, one request in flight. */
    RR("rr"),
    /** netperf TCP_CRR: connect, one request, close, per transaction. */
    CRR("crr"),
    /** Held connections, ramped up and sending rarely. */
    MASSIVE("massive"),
    /** RPC calls of a workload, or of any method of a descriptor set. */
    RPC("rpc"),
    /** nbagent's registration cycle. */
    REGISTER("register"),
    /** libonev's size and count sweep. */
    SWEEP("sweep"),
    /** The open-loop rate search for the latency knee. */
    RAMP("ramp"),
    /** UDP packet rate and bandwidth, or RFC 2544's zero-loss search. */
    UDP_STREAM("udp-stream");

    private final String label;

    Command(String label) {
        this.label = label;
    }

    /** The name the command line and a scenario file use: {@code echo}, {@code udp-stream}. */
    public String label() {
        return label;
    }

    /** The command {@code label} names; anything else is an {@link IllegalArgumentException} listing them. */
    public static Command parse(String label) {
        for (Command c : values()) {
            if (c.label.equals(label == null ? null : label.toLowerCase(Locale.ROOT))) {
                return c;
            }
        }
        throw new IllegalArgumentException("command: " + label + " (expected: "
                + Arrays.stream(values()).map(Command::label).collect(Collectors.joining(", ")) + ")");
    }

    /** Whether a controller can split it over workers; sweep, ramp and udp-stream run in one process. */
    public boolean distributable() {
        return this != SWEEP && this != RAMP && this != UDP_STREAM;
    }

    /** Whether it makes RPC calls (on the RPC port), rather than framed requests. */
    public boolean rpc() {
        return this == RPC || this == REGISTER;
    }

    /** Whether it runs a framed workload (a generated body, a payload, or one from a jar). */
    public boolean framedWorkload() {
        return this == ECHO || this == RR || this == CRR || this == MASSIVE || this == RAMP;
    }
}
