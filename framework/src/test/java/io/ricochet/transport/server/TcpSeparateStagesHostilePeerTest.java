package io.ricochet.transport.server;

import io.ricochet.testing.TestServers;
import io.ricochet.transport.PipelineCustomizer;

/** The hostile peers again, with the idle timeout and backpressure as handlers of their own. */
class TcpSeparateStagesHostilePeerTest extends TcpHostilePeerTest {
    @Override
    PipelineCustomizer customizer() {
        return TestServers.separateStages();
    }
}
