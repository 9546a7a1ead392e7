package io.ricochet.loadgen.payload;

import io.netty.buffer.ByteBuf;
import io.ricochet.loadgen.workload.Check;
import io.ricochet.loadgen.workload.Context;
import io.ricochet.loadgen.workload.FrameConversation;
import io.ricochet.loadgen.workload.FrameWorkload;

/** Placeholder until the templates land: generated bodies, each reply checked as the body reversed. */
public final class PayloadWorkload implements FrameWorkload, io.ricochet.loadgen.engine.ServerKind {
    private final Payload payload;

    private PayloadWorkload(Payload payload) {
        this.payload = payload;
    }

    public static PayloadWorkload generated(long seed, int minSize, int maxSize) {
        return new PayloadWorkload(new Payload(seed, minSize, maxSize));
    }

    /** Placeholder: one body for every request, each reply checked as it reversed. */
    public static FrameWorkload constantReversed(byte[] body) {
        byte[] reversed = new byte[body.length];
        for (int i = 0; i < body.length; i++) {
            reversed[i] = body[body.length - 1 - i];
        }
        return connection -> new FrameConversation() {
            @Override
            public void request(Context request, ByteBuf out) {
                out.writeBytes(body);
            }

            @Override
            public Check check(Context request, ByteBuf reply) {
                if (reply.readableBytes() != reversed.length) {
                    return Check.bad("length");
                }
                for (int i = 0; i < reversed.length; i++) {
                    if (reply.getByte(reply.readerIndex() + i) != reversed[i]) {
                        return Check.bad("not reversed");
                    }
                }
                return Check.ok();
            }
        };
    }

    @Override
    public String serverKind() {
        return "an echo port";
    }

    @Override
    public FrameConversation open(Context connection) {
        return new FrameConversation() {
            @Override
            public void request(Context request, ByteBuf body) {
                long base = payload.base(request.connection(), request.sequence());
                Payload.write(body, base, payload.size(base));
            }

            @Override
            public Check check(Context request, ByteBuf reply) {
                long base = payload.base(request.connection(), request.sequence());
                return Payload.verifyReversed(reply, base, payload.size(base)) ? Check.ok()
                        : Check.bad("not the request reversed");
            }
        };
    }
}
