package io.ricochet.transport;

import io.netty.channel.Channel;

/** A customizer with what it declares of itself: what {@link PipelineCustomizer}'s factories return. */
record DeclaredCustomizer(PipelineCustomizer customizer, boolean keepsFrameRuns, boolean addsNothingBetweenStages)
        implements PipelineCustomizer {

    @Override
    public void customize(Channel channel) {
        customizer.customize(channel);
    }
}
