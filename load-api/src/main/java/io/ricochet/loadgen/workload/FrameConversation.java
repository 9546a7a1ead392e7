package io.ricochet.loadgen.workload;

import io.netty.buffer.ByteBuf;

/**
 * One connection's requests and the checks of their replies. Both methods are called on the connection's event loop
 * only, so the conversation may keep state in plain fields: a value it put, to check the value it gets back; whether it
 * has logged in. With {@code --pipeline} above 1, later requests are made before earlier replies come; replies come in
 * the order of the requests.
 *
 * <p>An exception thrown by either method counts as an error of that request, with its class and message in the
 * summary's {@code first_error}, and the run goes on.
 *
 * <pre>{@code
 * FrameConversation ping = new FrameConversation() {
 *     public void request(Context request, ByteBuf body) {
 *         body.writeCharSequence("ping", StandardCharsets.US_ASCII);
 *     }
 *
 *     public Check check(Context request, ByteBuf reply) {
 *         return reply.toString(StandardCharsets.US_ASCII).equals("pong") ? Check.ok() : Check.bad("not pong");
 *     }
 * };
 * }</pre>
 */
public interface FrameConversation {

    /**
     * Writes the body of request {@code request.sequence()} into {@code body}, which the engine then sends as one frame
     * (it writes the length field). Do not release or keep {@code body}. A body must have at least one byte and fit the
     * length field ({@code --length-field 2}: 65,535 bytes); over UDP it is one datagram.
     */
    void request(Context request, ByteBuf body);

    /**
     * Checks the reply to request {@code request.sequence()}: its body is {@code reply}'s readable bytes, valid during
     * this call only (do not release it, keep it or move its indices). {@code request.sendTimeMicros()} is the time
     * the request was made, as in {@link #request}. Over UDP, a reply that comes after its request timed out is also
     * checked against the last 8 requests of its connection that timed out, to count it late rather than bad: so a
     * check must not change the conversation's state, and may be asked about one of those older requests again.
     */
    Check check(Context request, ByteBuf reply);
}
