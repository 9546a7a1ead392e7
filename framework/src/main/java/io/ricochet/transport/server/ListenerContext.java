package io.ricochet.transport.server;

import io.micrometer.core.instrument.MeterRegistry;
import io.netty.channel.ChannelOption;
import io.ricochet.handler.ConnectionBudget;
import io.ricochet.transport.EventLoops;
import io.ricochet.transport.PipelineCustomizer;
import java.util.Map;

/**
 * What a server's listeners share: its event loops, meters, defaults and connection budget.
 *
 * @param registry       where the listeners count, or null for nowhere
 * @param name           the default {@code name} tag of their meters
 * @param defaultService what a listener without a service of its own serves, or null when each has one
 * @param customizer     the pipeline customizer of a listener without one of its own
 * @param budget         the TCP connections of every listener together
 */
record ListenerContext(EventLoops loops, MeterRegistry registry, String name, ListenerService defaultService,
        PipelineCustomizer customizer, Map<ChannelOption<?>, Object> childOptions, ConnectionBudget budget) {
}
