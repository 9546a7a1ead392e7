package io.ricochet.rpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.ricochet.transport.session.FrameHandler;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What the RPC package shows its users: the call API, not the frame callbacks or the codec. */
class RpcPublicSurfaceTest {

    @Test
    void aConnectionIsNotAFrameHandlerToItsUsers() {
        assertFalse(FrameHandler.class.isAssignableFrom(RpcConnection.class));
        List<String> callbacks = Arrays.stream(RpcConnection.class.getMethods()).map(Method::getName)
                .filter(name -> List.of("onFrame", "sessionOpened", "sessionClosed", "owesReplies", "writabilityChanged")
                        .contains(name))
                .toList();
        assertEquals(List.of(), callbacks);
    }

    @Test
    void theEnvelopeCodecIsInternal() {
        assertFalse(Modifier.isPublic(EnvelopeCodec.class.getModifiers()));
    }
}
