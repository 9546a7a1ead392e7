package io.ricochet.loadgen.workload;

/**
 * A workload over a length-prefixed framed protocol (docs/protocol.md): each request is one frame, and the next frame
 * the connection receives is its reply (over UDP, one datagram each way). The engine writes the length field and reads
 * it back; the workload sees bodies only.
 *
 * <pre>{@code
 * FrameWorkload upper = connection -> new FrameConversation() {
 *     public void request(Context request, ByteBuf body) {
 *         body.writeCharSequence("hello " + request.sequence(), StandardCharsets.US_ASCII);
 *     }
 *
 *     public Check check(Context request, ByteBuf reply) {
 *         return reply.toString(StandardCharsets.US_ASCII).equals("HELLO " + request.sequence())
 *                 ? Check.ok() : Check.bad("not the request in capitals");
 *     }
 * };
 * }</pre>
 */
@FunctionalInterface
public interface FrameWorkload extends Workload {

    /**
     * The conversation of one new connection, called on its event loop when it opens ({@code connection.sequence()} is
     * -1 there). A connection the server drops is opened again under the same index, with a new conversation.
     */
    FrameConversation open(Context connection);
}
