package io.ricochet.loadgen.workload;

import java.util.Objects;

/**
 * A reply's verdict: ok, or bad with the reason. A bad reply counts in the summary's {@code bad}, makes the run exit 1
 * as any bad reply does, and the first one's reason is kept in {@code first_bad}.
 *
 * <pre>{@code
 * return reply.readableBytes() == 2 ? Check.ok() : Check.bad("expected 2 bytes, got " + reply.readableBytes());
 * }</pre>
 */
public final class Check {
    private static final Check OK = new Check(null);

    private final String reason;

    private Check(String reason) {
        this.reason = reason;
    }

    /** The reply is as expected. */
    public static Check ok() {
        return OK;
    }

    /** The reply is wrong; {@code reason} says how, for the summary. */
    public static Check bad(String reason) {
        Objects.requireNonNull(reason, "reason");
        return new Check(reason.isBlank() ? "(no reason given)" : reason);
    }

    public boolean isOk() {
        return reason == null;
    }

    /** Why the reply is bad; null when it is ok. */
    public String reason() {
        return reason;
    }

    @Override
    public String toString() {
        return reason == null ? "ok" : "bad: " + reason;
    }
}
