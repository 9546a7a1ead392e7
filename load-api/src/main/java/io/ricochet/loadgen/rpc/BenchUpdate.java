package io.ricochet.loadgen.rpc;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import io.ricochet.echo.rpc.BenchMethods;
import io.ricochet.echo.rpc.proto.BenchMessage;
import io.ricochet.loadgen.engine.Mixing;
import io.ricochet.loadgen.workload.Check;
import io.ricochet.loadgen.workload.Context;
import io.ricochet.loadgen.workload.RpcCall;
import io.ricochet.loadgen.workload.RpcConversation;
import io.ricochet.loadgen.workload.RpcReply;
import io.ricochet.loadgen.workload.RpcWorkload;
import java.util.SplittableRandom;

/**
 * nbagent's RPC test as a workload: each connection calls {@code bench.update} with a {@link BenchMessage} carrying its
 * index, the request's number, its send time and a fixed body of {@code bodySize} bytes, and checks every answer: the
 * two fields the server sets (its sequence number, rising on each connection, and its receive time) and every other
 * field unchanged.
 */
public record BenchUpdate(int bodySize, long seed) implements RpcWorkload {

    @Override
    public RpcConversation open(Context connection) {
        byte[] bytes = new byte[bodySize];
        new SplittableRandom(Mixing.mix(seed * 31 + connection.connection())).nextBytes(bytes);
        return new Conversation(connection.connection(), ByteString.copyFrom(bytes));
    }

    /** One connection's calls; the last server sequence seen is its only state. */
    private static final class Conversation implements RpcConversation {
        private final long clientId;
        private final ByteString body;
        private long lastServerSequence;

        Conversation(long clientId, ByteString body) {
            this.clientId = clientId;
            this.body = body;
        }

        @Override
        public RpcCall request(Context request) {
            BenchMessage message = BenchMessage.newBuilder().setClientId(clientId).setSequence(request.sequence())
                    .setClientSendTimeMicros(request.sendTimeMicros()).setBody(body).build();
            return new RpcCall(BenchMethods.UPDATE, message.toByteString());
        }

        @Override
        public Check check(Context request, RpcReply reply) {
            if (!reply.isOk()) {
                return Check.bad(reply.status() + ": " + reply.detail());
            }
            BenchMessage answer;
            try {
                answer = BenchMessage.parseFrom(reply.payload());
            } catch (InvalidProtocolBufferException e) {
                return Check.bad("the answer is not a BenchMessage");
            }
            if (answer.getServerSequence() <= lastServerSequence) {
                return Check.bad("server sequence " + answer.getServerSequence() + " not above " + lastServerSequence);
            }
            lastServerSequence = answer.getServerSequence();
            if (answer.getServerReceiveTimeMicros() <= 0) {
                return Check.bad("server receive time not set");
            }
            // Field by field: rebuilding the message to compare it would allocate per answer.
            if (answer.getClientId() != clientId || answer.getSequence() != request.sequence()
                    || answer.getClientSendTimeMicros() != request.sendTimeMicros() || !answer.getBody().equals(body)) {
                return Check.bad("a field the server must not touch changed");
            }
            return Check.ok();
        }
    }
}
