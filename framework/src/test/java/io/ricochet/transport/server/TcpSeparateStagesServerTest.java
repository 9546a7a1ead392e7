package io.ricochet.transport.server;

import io.ricochet.testing.TestServers;
import io.ricochet.transport.PipelineCustomizer;

/**
 * The TCP contract again, with the idle timeout and backpressure as handlers of their own: what a server runs when its
 * pipeline customizer may add handlers between the stages.
 */
class TcpSeparateStagesServerTest extends TcpServerTest {
    @Override
    PipelineCustomizer customizer() {
        return TestServers.separateStages();
    }
}
