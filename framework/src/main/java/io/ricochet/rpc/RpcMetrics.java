package io.ricochet.rpc;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The meters of one side (server or client) of the RPC layer: a timer per method tag and status, and a
 * gauge of calls in flight. Tags are bounded: only methods a side serves (or calls) name a tag, unknown
 * names share {@link #UNKNOWN_METHOD} and agent routes {@link #AGENT_ROUTE}; and past {@code maxMethodTags}
 * distinct tags, further ones share {@link #OTHER_METHOD}, so a registry cannot grow without end.
 */
public final class RpcMetrics {
    public static final String SERVER_REQUESTS = "ricochet.rpc.server.requests";
    public static final String SERVER_IN_FLIGHT = "ricochet.rpc.server.in.flight";
    public static final String CLIENT_REQUESTS = "ricochet.rpc.client.requests";
    public static final String CLIENT_IN_FLIGHT = "ricochet.rpc.client.in.flight";
    public static final String OTHER_METHOD = "other";
    /** The tag of a request for a method this side does not serve, or whose name is invalid: peers cannot mint tag values. */
    public static final String UNKNOWN_METHOD = "unknown";
    /** The tag of an agent's calls to its clients' routes, and of the calls it forwards: their URIs are the clients' choice. */
    public static final String AGENT_ROUTE = "agent.route";

    private final MeterRegistry registry;
    private final String timerName;
    private final int maxMethodTags;
    private final ConcurrentHashMap<String, Timer[]> timers = new ConcurrentHashMap<>();
    private final AtomicInteger inFlight = new AtomicInteger();

    private RpcMetrics(MeterRegistry registry, String timerName, String gaugeName, int maxMethodTags) {
        this.registry = registry;
        this.timerName = timerName;
        this.maxMethodTags = maxMethodTags;
        Gauge.builder(gaugeName, inFlight, AtomicInteger::get)
                .description("RPC calls in flight").strongReference(true).register(registry);
    }

    public static RpcMetrics server(MeterRegistry registry, RpcConfig config) {
        return new RpcMetrics(registry, SERVER_REQUESTS, SERVER_IN_FLIGHT, config.maxMethodTags());
    }

    public static RpcMetrics client(MeterRegistry registry, RpcConfig config) {
        return new RpcMetrics(registry, CLIENT_REQUESTS, CLIENT_IN_FLIGHT, config.maxMethodTags());
    }

    void started() {
        inFlight.incrementAndGet();
    }

    void finished(String tag, RpcStatus status, long nanos) {
        inFlight.decrementAndGet();
        timersOf(tag)[status.ordinal()].record(nanos, TimeUnit.NANOSECONDS);
    }

    public int inFlight() {
        return inFlight.get();
    }

    private Timer[] timersOf(String tag) {
        Timer[] found = timers.get(tag);
        if (found != null) {
            return found;
        }
        // Past the cap only "other" is added; such a tag then finds "other" on each call.
        return timers.computeIfAbsent(timers.size() < maxMethodTags ? tag : OTHER_METHOD, this::register);
    }

    private Timer[] register(String tag) {
        Timer[] byStatus = new Timer[RpcStatus.values().length];
        for (RpcStatus s : RpcStatus.values()) {
            byStatus[s.ordinal()] = Timer.builder(timerName).description("RPC calls by method and status")
                    .tag("method", tag).tag("status", s.name()).register(registry);
        }
        return byStatus;
    }
}
