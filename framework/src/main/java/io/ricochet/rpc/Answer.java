package io.ricochet.rpc;

import com.google.protobuf.ByteString;
import com.google.protobuf.MessageLite;
import java.util.concurrent.CompletionStage;

/**
 * What a router gives back for one request: a stage that completes with the answer's bytes, or, from a typed method
 * served on the event loop, with its message, which {@link EnvelopeCodec#encodeMessage} writes straight into the frame.
 * The kind is known where the handler is chosen, so nothing downstream has to guess it from an {@code Object}.
 */
sealed interface Answer permits Answer.Bytes, Answer.Message {
    /** The stage the handler returned; null if it returned none (then the request fails with {@code INTERNAL}). */
    CompletionStage<?> stage();

    record Bytes(CompletionStage<ByteString> stage) implements Answer {
    }

    record Message(CompletionStage<? extends MessageLite> stage) implements Answer {
    }
}
