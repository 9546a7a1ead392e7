/**
 * The load generator's workload API: what a request to your service is, and how its reply is checked. The engine does
 * the rest: connections (TCP, UDP or QUIC, plain or over TLS or Noise, from source addresses, to many targets), pacing
 * (closed loop, open loop, pipelining, per-connection rates, the connect ramp), timeouts, latency corrected for
 * coordinated omission, progress, reports, thresholds, and the exact merge across workers.
 *
 * <p>A {@link io.ricochet.loadgen.workload.FrameWorkload} loads a length-prefixed framed protocol; an
 * {@link io.ricochet.loadgen.workload.RpcWorkload} calls methods of a Ricochet RPC server. Each connection gets a
 * conversation of its own, called only on that connection's event loop, so it may keep state without locks:
 *
 * <pre>{@code
 * public final class PingWorkload implements FrameWorkload {
 *     public FrameConversation open(Context connection) {
 *         return new FrameConversation() {
 *             public void request(Context request, ByteBuf body) {
 *                 body.writeCharSequence("ping " + request.sequence(), StandardCharsets.US_ASCII);
 *             }
 *
 *             public Check check(Context request, ByteBuf reply) {
 *                 String text = reply.toString(StandardCharsets.US_ASCII);
 *                 return text.equals("pong " + request.sequence()) ? Check.ok() : Check.bad("answered " + text);
 *             }
 *         };
 *     }
 * }
 * }</pre>
 *
 * <p>Run it from a jar ({@code --workload-jar ping.jar --workload ping}, through a {@link
 * io.ricochet.loadgen.workload.WorkloadProvider}) or from code ({@code io.ricochet.loadgen.api.LoadTest}). This
 * package is kept stable within 0.x: types may be added, and default methods to its interfaces (so a lambda or an
 * implementation written today still compiles); nothing is removed or changed.
 */
package io.ricochet.loadgen.workload;
