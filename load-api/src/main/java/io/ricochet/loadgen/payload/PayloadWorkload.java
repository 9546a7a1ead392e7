package io.ricochet.loadgen.payload;

import io.ricochet.loadgen.workload.Context;
import io.ricochet.loadgen.workload.FrameConversation;
import io.ricochet.loadgen.engine.ServerKind;
import io.ricochet.loadgen.workload.FrameWorkload;
import java.util.OptionalLong;
import java.util.function.Function;

/**
 * A framed workload with no code: requests are generated bodies or a {@link Template} ({@code --payload}), and each
 * reply is checked against an {@link Expectation} ({@code --expect}). Checking allocates nothing for a good reply
 * (but see {@link Expectation}'s regex with per-request placeholders); a bad one's reason says what was wrong:
 *
 * <ul>
 *   <li>{@code equals}: {@code expected "value 17" (8 bytes), got "missing" (7 bytes)}, with
 *       {@code , first difference at byte N} when the quotes do not show it;</li>
 *   <li>{@code length}: {@code 7 bytes (expected: 5)};</li>
 *   <li>{@code regex}: {@code "missing" does not match regex value \d+};</li>
 *   <li>{@code reversed} and {@code echo} of generated bodies: {@code not the request reversed: 64 bytes, first
 *       difference at byte 3}, or {@code not the request echoed: 7 bytes (expected: 64): "ERR unknown"}; of a
 *       template: {@code not the request reversed: } and then as for {@code equals}.</li>
 * </ul>
 *
 * Quotes show at most 40 characters, non-printable bytes as {@code \xNN}. Checks keep no state, so a late reply
 * over UDP can be checked against an older request.
 *
 * <pre>{@code
 * FrameWorkload echo = PayloadWorkload.generated(seed, 64, 64, Expectation.reversed());
 * FrameWorkload kv = PayloadWorkload.of(Payloads.parse("get key-{{seq}}", seed),
 *         Expectation.parse("equals:value {{seq}}", seed));
 * }</pre>
 */
public final class PayloadWorkload implements FrameWorkload, ServerKind {
    private final Payload generated;
    private final Template template;
    private final Expectation expectation;
    /** Null for generated bodies that the conversation compares with the reply itself. */
    private final Function<Context, ReplyCheck> checks;

    private PayloadWorkload(Payload generated, Template template, Expectation expectation) {
        this.generated = generated;
        this.template = template;
        this.expectation = expectation;
        boolean compared = generated != null && (expectation.isReversed() || expectation.isEcho());
        this.checks = compared ? null : expectation.checks(template);
    }

    /**
     * Generated bodies of {@code minSize} to {@code maxSize} bytes, each derived from the seed, the connection and the
     * request (the load generator's default, without {@code --payload}).
     *
     * <pre>{@code
     * PayloadWorkload.generated(seed, 16, 1024, Expectation.echo())
     * }</pre>
     */
    public static PayloadWorkload generated(long seed, int minSize, int maxSize, Expectation expectation) {
        return new PayloadWorkload(new Payload(seed, minSize, maxSize), null, expectation);
    }

    /**
     * Requests from {@code payload}, placeholders filled in per request.
     *
     * <pre>{@code
     * PayloadWorkload.of(Payloads.parse("@request.bin", seed), Expectation.parse("length:8", seed))
     * }</pre>
     */
    public static PayloadWorkload of(Template payload, Expectation expectation) {
        if (payload.isConstant() && payload.constantBytes().length == 0) {
            throw new IllegalArgumentException("payload: empty (expected: at least one byte; frames are never empty)");
        }
        return new PayloadWorkload(null, payload, expectation);
    }

    @Override
    public FrameConversation open(Context connection) {
        ReplyCheck replies = checks == null ? null : checks.apply(connection);
        if (generated != null) {
            return new GeneratedConversation(generated, expectation.isReversed(), replies);
        }
        if (template.variesPerRequest() && (expectation.isReversed() || expectation.isEcho())) {
            // The reply is the request: compared with what was sent, not with the template expanded again.
            return new RememberingConversation(template, expectation.isReversed(), expectation.isReversed()
                    ? "not the request reversed: " : "not the request echoed: ");
        }
        byte[] fixed = template.isConstant() ? template.constantBytes()
                : template.variesPerRequest() ? null
                : template.bytesFor(connection);
        return new TemplateConversation(template, fixed, replies);
    }

    /**
     * The longest request body it writes: for the caller to check against the length field ({@code --length-field 2}
     * carries 65,535 bytes at most) or a datagram.
     */
    public int maxBodyLength() {
        return generated != null ? generated.maxSize() : template.maxLength();
    }

    public Expectation expectation() {
        return expectation;
    }

    /** A server that answers every body reversed is the reference echo server. */
    @Override
    public String serverKind() {
        return expectation.isReversed() ? "an echo port" : "a port that answers as --expect " + expectation + " says";
    }

    /**
     * The generator's memory per connection, when this workload adds to it: a template that changes per request keeps
     * a scratch array of its longest request per connection, and so may the check of its replies.
     */
    @Override
    public OptionalLong bytesPerConnection() {
        long extra = expectation.bytesPerConnection(template, maxBodyLength());
        if (template != null && !template.isConstant()) {
            extra += template.maxLength();
        }
        return extra == 0 ? OptionalLong.empty() : OptionalLong.of(extra);
    }

    /** {@code generated 64..64 bytes, expect reversed}, or {@code template of 12..42 bytes, expect equals:value {{seq}}}. */
    @Override
    public String toString() {
        String requests = generated != null
                ? "generated " + generated.minSize() + ".." + generated.maxSize() + " bytes"
                : "template of up to " + template.maxLength() + " bytes";
        return requests + ", expect " + expectation;
    }
}
