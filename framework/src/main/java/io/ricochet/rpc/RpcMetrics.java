package io.ricochet.rpc;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.ricochet.metrics.MeterNames;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The meters of one side (server or client) of one RPC server or client group: a timer per method tag
 * and status, a gauge of calls in flight, and on the server side a counter of envelopes dropped for their kind, all
 * tagged with the owner's {@code name}. They are on the registry from {@link #register} to {@link #close}, and
 * never after: a call that ends after the close (a late answer) is not counted. Tags are bounded: only methods a side serves (or calls) name a tag,
 * unknown names share {@link #UNKNOWN_METHOD} and agent routes {@link #AGENT_ROUTE}; and past
 * {@code maxMethodTags} distinct tags, further ones share {@link #OTHER_METHOD}, so a registry cannot
 * grow without end. Without a registry it only keeps the in-flight count.
 */
public final class RpcMetrics implements AutoCloseable {
    public static final String SERVER_REQUESTS = "ricochet.rpc.server.requests";
    public static final String SERVER_IN_FLIGHT = "ricochet.rpc.server.in.flight";
    public static final String CLIENT_REQUESTS = "ricochet.rpc.client.requests";
    public static final String CLIENT_IN_FLIGHT = "ricochet.rpc.client.in.flight";
    /**
     * Counter, envelopes dropped unread because this end does not know their kind: 0 (the field left out) or a later
     * version's. Counted by the server side of a server or a client group (whose connections read envelopes too);
     * tagged {@code name} only, not with the kind, which a peer chooses.
     */
    public static final String ENVELOPES_DROPPED = "ricochet.rpc.envelopes.dropped";
    public static final String OTHER_METHOD = "other";
    /** The tag of a request for a method this side does not serve, or whose name is invalid: peers cannot mint tag values. */
    public static final String UNKNOWN_METHOD = "unknown";
    /** The tag of an agent's calls to its clients' routes, and of the calls it forwards: their URIs are the clients' choice. */
    public static final String AGENT_ROUTE = "agent.route";

    private final MeterRegistry registry;
    private final String name;
    private final String timerName;
    private final String gaugeName;
    /** Null for the client side: envelopes are dropped where they are read, which the server side counts. */
    private final String droppedName;
    private final int maxMethodTags;
    private final ConcurrentHashMap<String, Timer[]> timers = new ConcurrentHashMap<>();
    private final AtomicInteger inFlight = new AtomicInteger();
    /** Guarded by {@code this}, with {@link #closed}: a timer is added only while open, so close removes them all. */
    private Meter gauge;
    private volatile Counter dropped;
    private volatile boolean registered;
    private volatile boolean closed;

    private RpcMetrics(MeterRegistry registry, String name, String timerName, String gaugeName, String droppedName,
            int maxMethodTags) {
        this.registry = registry;
        this.name = name;
        this.timerName = timerName;
        this.gaugeName = gaugeName;
        this.droppedName = droppedName;
        this.maxMethodTags = maxMethodTags;
    }

    /** The server side of the RPC server or client group {@code name}, not yet registered; {@code registry} null counts nothing. */
    static RpcMetrics server(MeterRegistry registry, String name, RpcConfig config) {
        return new RpcMetrics(registry, name, SERVER_REQUESTS, SERVER_IN_FLIGHT, ENVELOPES_DROPPED, config.maxMethodTags());
    }

    /** The client side of the RPC server (its agent's hops) or client group {@code name}, not yet registered. */
    static RpcMetrics client(MeterRegistry registry, String name, RpcConfig config) {
        return new RpcMetrics(registry, name, CLIENT_REQUESTS, CLIENT_IN_FLIGHT, null, config.maxMethodTags());
    }

    /**
     * Puts the gauges of {@code sides} (one owner's, on one registry) on their registry, all or none.
     * Fails with {@link IllegalStateException}, registering nothing, if another owner's meters carry the
     * same name there. The check and the registration hold the registry's lock, which the transport meters
     * take too, so two owners starting at once cannot both pass the check.
     */
    static void register(RpcMetrics... sides) {
        MeterRegistry registry = sides[0].registry;
        if (registry == null) {
            return;
        }
        synchronized (registry) {
            for (RpcMetrics side : sides) {
                if (registry.find(side.gaugeName).tag(MeterNames.TAG_NAME, side.name).meter() != null) {
                    throw new IllegalStateException(side.gaugeName + "{" + MeterNames.TAG_NAME + "=" + side.name
                            + "} is already registered on this registry (expected: a name of its own for each RPC server "
                            + "and client group on one registry: RicochetServer.builder().name(...) or Listener.name(...), "
                            + "RpcClientConfig.builder().name(...))");
                }
            }
            for (RpcMetrics side : sides) {
                side.registerGauge();
            }
        }
    }

    private synchronized void registerGauge() {
        if (closed) {
            return;
        }
        gauge = Gauge.builder(gaugeName, inFlight, AtomicInteger::get).description("RPC calls in flight")
                .tag(MeterNames.TAG_NAME, name).register(registry);
        if (droppedName != null) {
            dropped = Counter.builder(droppedName).description("RPC envelopes of a kind this end does not know, dropped")
                    .tag(MeterNames.TAG_NAME, name).register(registry);
        }
        registered = true;
    }

    /** An envelope of a kind this end does not know was dropped. One counter for the side: no tag to look up per frame. */
    void droppedEnvelope() {
        Counter counter = dropped;
        if (counter != null && !closed) {
            counter.increment();
        }
    }

    void started() {
        inFlight.incrementAndGet();
    }

    void finished(String tag, RpcStatus status, long nanos) {
        inFlight.decrementAndGet();
        if (timed()) {
            record(tag, status, nanos);
        }
    }

    /** As {@link #finished}, timed from {@code startNanos}: the clock is read only when there is a timer to record. */
    void finishedSince(String tag, RpcStatus status, long startNanos) {
        inFlight.decrementAndGet();
        if (timed()) {
            record(tag, status, System.nanoTime() - startNanos);
        }
    }

    private boolean timed() {
        return registered && !closed;
    }

    private void record(String tag, RpcStatus status, long nanos) {
        Timer[] byStatus = timersOf(tag);
        if (byStatus != null) {
            byStatus[status.ordinal()].record(nanos, TimeUnit.NANOSECONDS);
        }
    }

    public int inFlight() {
        return inFlight.get();
    }

    /** The timers of {@code tag}, or null once closed. */
    private Timer[] timersOf(String tag) {
        Timer[] found = timers.get(tag);
        if (found != null) {
            return found;
        }
        synchronized (this) {
            if (closed) {
                return null;
            }
            // Past the cap only "other" is added; such a tag then finds "other" on each call.
            return timers.computeIfAbsent(timers.size() < maxMethodTags ? tag : OTHER_METHOD, this::registerTimers);
        }
    }

    private Timer[] registerTimers(String tag) {
        Timer[] byStatus = new Timer[RpcStatus.values().length];
        for (RpcStatus s : RpcStatus.values()) {
            byStatus[s.ordinal()] = Timer.builder(timerName).description("RPC calls by method and status")
                    .tag(MeterNames.TAG_NAME, name).tag("method", tag).tag("status", s.name()).register(registry);
        }
        return byStatus;
    }

    /** Removes the meters from the registry for good: what ends later is not counted, and registers nothing. */
    @Override
    public synchronized void close() {
        closed = true;
        if (registry == null) {
            return;
        }
        if (gauge != null) {
            registry.remove(gauge);
            gauge = null;
        }
        if (dropped != null) {
            registry.remove(dropped);
            dropped = null;
        }
        for (Timer[] byStatus : timers.values()) {
            for (Timer timer : byStatus) {
                registry.remove(timer);
            }
        }
        timers.clear();
    }
}
